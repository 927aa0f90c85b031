// After the build: Prism's reading of the spec the package ships (dist/partner-payments.yaml) and
// of the test-mode document (dist/test-mode.json), each stored next to it (dist/*.operations), so
// that the mock and the fixture runner start without reading them.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
// The one module of the engine this script needs, by its own entry: Node runs this script as it
// is, and the engine's main entry is TypeScript for a bundler.
import { operationsSnapshot } from "@org/payments-engine/operations-snapshot";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url);

const spec = fileURLToPath(dist("partner-payments.yaml"));
writeFileSync(
  dist("partner-payments.operations"),
  operationsSnapshot(readFileSync(spec, "utf8"), await getHttpOperationsFromSpec(spec)),
);

// Read as the engine reads a document given as JSON (src/fixtures/test-mode-engine.ts falls back to that).
const testMode = readFileSync(dist("test-mode.json"), "utf8");
writeFileSync(
  dist("test-mode.operations"),
  operationsSnapshot(testMode, await getHttpOperationsFromSpec(JSON.parse(testMode))),
);
