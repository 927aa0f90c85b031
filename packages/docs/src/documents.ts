// The two OpenAPI documents as the site serves them, for client generators and download: the
// API's and the test mode's, each as YAML and JSON, in openapi/. The API's YAML is the
// hand-authored file; the test mode's is made one file (its `$ref`s into the API's document
// copied in, every `$ref` local), as the sandbox serves it at GET /_sandbox/openapi.json. Neither
// carries the site's own additions (code samples, consoles, logo).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadBundledSpec, loadSpec, specPath, testModeSpecPath } from "@org/payments-spec";
import { stringify } from "yaml";

/** The folder of the site the documents are in. */
export const DOCUMENTS_DIR = "openapi";

/** Each document's files, by the name a link gives it. */
export const DOCUMENTS = [
  { label: "The API", name: "partner-payments" },
  { label: "The test mode", name: "test-mode" },
] as const;

/** Writes openapi/<name>.yaml and openapi/<name>.json of each document into the site at `root`. */
export function writeDocuments(root: string): string[] {
  const dir = path.join(root, DOCUMENTS_DIR);
  mkdirSync(dir, { recursive: true });
  const testMode = loadBundledSpec(testModeSpecPath);
  const files: Record<string, string> = {
    "partner-payments.yaml": readFileSync(specPath, "utf8"),
    "partner-payments.json": `${JSON.stringify(loadSpec(), null, 2)}\n`,
    "test-mode.yaml": stringify(testMode, { lineWidth: 0 }),
    "test-mode.json": `${JSON.stringify(testMode, null, 2)}\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return Object.keys(files).map((name) => `${DOCUMENTS_DIR}/${name}`);
}

/** A reference page's section linking both documents, from a page at the site's root. */
export function documentsSection(): string {
  const links = DOCUMENTS.map(
    ({ label, name }) =>
      `- ${label}: [${name}.yaml](${DOCUMENTS_DIR}/${name}.yaml) · [${name}.json](${DOCUMENTS_DIR}/${name}.json)`,
  );
  return [
    "## OpenAPI documents",
    "",
    "Both documents, for a client generator (openapi-generator, oapi-codegen, openapi-python-client, …)",
    "or to download: the API's, which the sandbox also answers, and the test mode's (its routes",
    "under `/_sandbox/`, one file with every `$ref` local, as the running sandbox serves it at",
    "`GET /_sandbox/openapi.json`).",
    "",
    ...links,
    "",
    "What changed in each release of either document, breaking changes first with what to do:",
    "[the API changelog](changelog.html) (and its [Atom feed](atom.xml)).",
  ].join("\n");
}
