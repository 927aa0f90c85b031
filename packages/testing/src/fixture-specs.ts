import { fileURLToPath } from "node:url";

/** Small specs the engine's and the mock's tests serve: items (CORS, problems), hostile, prefer. */
export function fixtureSpecPath(name: "items" | "hostile" | "prefer"): string {
  return fileURLToPath(new URL(`../fixtures/specs/${name}.yaml`, import.meta.url));
}
