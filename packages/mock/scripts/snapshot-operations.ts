// After the build: Prism's reading of the spec the package ships (dist/partner-payments.yaml),
// stored next to it as dist/partner-payments.operations, so that the mock starts without reading it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
// The one module of the engine this script needs, by its own entry: Node runs this script as it
// is, and the engine's main entry is TypeScript for a bundler.
import { operationsSnapshot } from "@org/payments-engine/operations-snapshot";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";

const spec = fileURLToPath(new URL("../dist/partner-payments.yaml", import.meta.url));
const operations = await getHttpOperationsFromSpec(spec);
writeFileSync(
  new URL("../dist/partner-payments.operations", import.meta.url),
  operationsSnapshot(readFileSync(spec, "utf8"), operations),
);
