// Runs after `changeset version`: the documents' info.version follows the published packages (one
// fixed version group), and each document becomes its released baseline for `pnpm spec:diff`: the
// API's and the test mode's.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(
  readFileSync(path.join(root, "packages/client/package.json"), "utf8"),
);

// Only the version line inside the top-level `info` block changes, so the file keeps its layout.
const infoVersion = /^(info:\n(?:[ \t].*\n|\n)*? {2}version: )(\S+)$/m;

for (const name of ["partner-payments.yaml", "test-mode.yaml"]) {
  const specFile = path.join(root, "openapi", name);
  const text = readFileSync(specFile, "utf8");
  const match = text.match(infoVersion);
  if (!match) throw new Error(`No info.version line found in ${specFile}`);
  writeFileSync(specFile, text.replace(infoVersion, `$1${version}`));
  copyFileSync(specFile, path.join(root, "openapi/released", name));
  console.log(`▸ ${name} info.version ${match[2]} → ${version}; released baseline updated`);
}
