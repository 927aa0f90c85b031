import { fileURLToPath } from "node:url";

/** The copy of the partner payments spec that the build puts next to the built modules. */
export function bundledSpecPath(): string {
  return fileURLToPath(new URL("./partner-payments.yaml", import.meta.url));
}
