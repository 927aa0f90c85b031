import { fileURLToPath } from "node:url";

/** The copy of the partner payments spec that the build puts next to the built modules. */
export function bundledSpecPath(): string {
  return fileURLToPath(new URL("./partner-payments.yaml", import.meta.url));
}

/** Prism's reading of that copy, which the build stores next to it (see operations-snapshot.ts). */
export function bundledOperationsPath(): string {
  return fileURLToPath(new URL("./partner-payments.operations", import.meta.url));
}
