// `npm run version-packages` runs it after `changeset version`: each changed document gets its own
// next version, its released baseline and history copy, its entry in the API changelog, and the
// published packages' CHANGELOGs the API changes that reach them (src/release-documents.ts).
import path from "node:path";
import { releaseDocuments } from "../src/release-documents.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const today = new Date().toISOString().slice(0, 10);
const releases = await releaseDocuments(root, today);
if (releases.length === 0) console.log("▸ the API's documents are unchanged since their release");
for (const release of releases) {
  console.log(
    `▸ openapi/${release.document}.yaml ${release.previous} → ${release.version} (${release.level}, ${release.changes.length} change(s)); released baseline, history and changelog updated`,
  );
}
