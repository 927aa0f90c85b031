// Runs after `changeset version`: the spec's info.version follows the published packages
// (one fixed version group), and the spec becomes the released baseline for `pnpm spec:diff`.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const specFile = path.join(root, "openapi/partner-payments.yaml");
const releasedFile = path.join(root, "openapi/released/partner-payments.yaml");
const { version } = JSON.parse(
  readFileSync(path.join(root, "packages/client/package.json"), "utf8"),
);

// Only the version line inside the top-level `info` block changes, so the file keeps its layout.
const text = readFileSync(specFile, "utf8");
const infoVersion = /^(info:\n(?:[ \t].*\n|\n)*? {2}version: )(\S+)$/m;
const match = text.match(infoVersion);
if (!match) throw new Error(`No info.version line found in ${specFile}`);
const previous = match[2];
writeFileSync(specFile, text.replace(infoVersion, `$1${version}`));
copyFileSync(specFile, releasedFile);

console.log(`▸ spec info.version ${previous} → ${version}; released baseline updated`);
