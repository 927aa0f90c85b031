// The documents' side of `npm run version-packages` (after `changeset version`): each document
// whose text changed since its released baseline gets its own next version, by what its changes
// need (a break a major, an addition or a deprecation a minor, anything else a patch), not the
// packages' version. Its `info.version` moves, it becomes the released baseline, a copy is kept
// per version in openapi/released/history/, the release goes into openapi/released/changelog.json,
// and each published package's CHANGELOG gets the API changes that reach it.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadBundledSpec, loadSpec, type OpenApiDocument } from "@org/payments-spec";
import { stringify } from "yaml";
import { PUBLISHED_PACKAGES } from "./api-changes.ts";
import {
  type ApiChangelog,
  type ApiRelease,
  CHANGELOG_FILE,
  HISTORY_DIR,
  packageSectionMarkdown,
  readChangelog,
  releaseId,
  releaseOf,
} from "./changelog.ts";
import {
  baselineFile,
  type ChangesOf,
  DOCUMENTS,
  headFile,
  pendingReleases,
  withVersion,
} from "./pending.ts";
import { diffDocument } from "./spec-diff.ts";

/** The whole guard's changes: on the wire and in the packages' exports. */
export const guardChanges: ChangesOf = async (document, base, head) =>
  (await diffDocument(document, base, head)).changes;

/** Releases every changed document (see the top of this file); returns what it released. */
export async function releaseDocuments(root: string, date: string): Promise<ApiRelease[]> {
  const releases = await pendingReleases(root, date, guardChanges);
  for (const release of releases) {
    const file = headFile(root, release.document);
    const text = withVersion(readFileSync(file, "utf8"), release.version, file);
    writeFileSync(file, text);
    writeFileSync(baselineFile(root, release.document), text);
    const history = path.join(root, HISTORY_DIR);
    mkdirSync(history, { recursive: true });
    // The test mode's copy is bundled (its `$ref`s into the API's document copied in), so that
    // each version reads alone, whatever the API's document became.
    writeFileSync(
      path.join(history, `${release.document}@${release.version}.yaml`),
      release.document === "test-mode" ? stringify(loadBundledSpec(file), { lineWidth: 0 }) : text,
    );
  }
  if (releases.length === 0) return releases;
  const record = path.join(root, CHANGELOG_FILE);
  const changelog: ApiChangelog = existsSync(record)
    ? JSON.parse(readFileSync(record, "utf8"))
    : { releases: [] };
  changelog.releases = [...releases, ...changelog.releases];
  writeFileSync(record, `${JSON.stringify(changelog, null, 2)}\n`);
  const packages = new Set(Object.values(PUBLISHED_PACKAGES).flat());
  for (const name of packages) addPackageSection(root, name, releases);
  return releases;
}

/**
 * Puts the API changes that reach a package under the newest version heading of its CHANGELOG.md
 * (the one `changeset version` just wrote).
 */
function addPackageSection(root: string, name: string, releases: ApiRelease[]) {
  const section = packageSectionMarkdown(releases, name);
  const file = path.join(root, "packages", name.replace("@org/payments-", ""), "CHANGELOG.md");
  if (section === "" || !existsSync(file)) return;
  const text = readFileSync(file, "utf8");
  const heading = /^## .+\n/m.exec(text);
  if (!heading) {
    throw new Error(
      `${path.relative(root, file)} has no version heading: run \`changeset version\` first (npm run version-packages does)`,
    );
  }
  const at = heading.index + heading[0].length;
  writeFileSync(file, `${text.slice(0, at)}\n${section}${text.slice(at)}`);
}

/**
 * The released entries of the changelog made again from the copies in openapi/released/history/:
 * each version of each document against the one before it, dated as the record dates it.
 */
export async function rebuildChangelog(root: string): Promise<ApiChangelog> {
  const record = readChangelog(root);
  const dated = new Map(record.releases.map((release) => [releaseId(release), release.date]));
  const folder = path.join(root, HISTORY_DIR);
  const releases: ApiRelease[] = [];
  for (const document of DOCUMENTS) {
    const versions = readdirSync(folder)
      .map((file) => new RegExp(`^${document}@(\\d+\\.\\d+\\.\\d+)\\.yaml$`).exec(file)?.[1])
      .filter((version) => version !== undefined)
      .sort(compareVersions);
    let previous: { version: string; doc: OpenApiDocument } | undefined;
    for (const version of versions) {
      const doc = loadSpec(path.join(folder, `${document}@${version}.yaml`));
      const date = dated.get(releaseId({ document, version })) ?? null;
      if (previous === undefined) {
        releases.push(releaseOf({ document, version, date }, []));
      } else {
        const { changes } = await diffDocument(document, previous.doc, doc);
        releases.push({
          ...releaseOf({ document, version, previous: previous.version, date }, changes),
          version,
        });
      }
      previous = { version, doc };
    }
  }
  releases.sort(
    (a, b) =>
      (b.date ?? "9999").localeCompare(a.date ?? "9999") || compareVersions(b.version, a.version),
  );
  return { releases };
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split(".").map(Number));
  for (let part = 0; part < 3; part++) {
    const difference = (x?.[part] ?? 0) - (y?.[part] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
