import { fileURLToPath } from "node:url";

/**
 * Small specs the engine's and the mock's tests serve: items (CORS, problems), hostile, prefer,
 * deprecations (a deprecated operation, parameter and fields, with and without a sunset).
 */
export function fixtureSpecPath(name: "items" | "hostile" | "prefer" | "deprecations"): string {
  return fileURLToPath(new URL(`../fixtures/specs/${name}.yaml`, import.meta.url));
}
