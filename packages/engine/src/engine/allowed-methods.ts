import type { PrismEngine } from "./prism-engine.js";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The methods the engine routes at `path`: what a 405 lists, and sends in `Allow`. */
export function allowedMethods(engine: PrismEngine, path: string): string[] {
  return METHODS.filter((method) => engine.route(method, path) !== undefined);
}
