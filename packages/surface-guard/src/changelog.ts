// The API's changelog: for each released version of each document (the API's and the test mode's),
// a dated entry of every change a consumer can feel, breaking ones first with why they break and
// what to do. `npm run version-packages` appends each release to openapi/released/changelog.json,
// the record of what the guard found (its report is otherwise gone once the version commit lands);
// `npm run spec:changelog`, the docs site and the packages' CHANGELOGs render it from here.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ApiChange, ApiDocument, Level } from "./api-changes.ts";

export type { ApiChange, ApiDocument, Level } from "./api-changes.ts";

/** One version of one document: what changed since the version before it. */
export type ApiRelease = {
  document: ApiDocument;
  version: string;
  /** The version it follows; absent for a document's first release. */
  previous?: string;
  /** The day it was released (UTC, `YYYY-MM-DD`); null while it is not released yet. */
  date: string | null;
  /** The largest level among its changes: a major release breaks something. */
  level: Level;
  /** Breaking first, then deprecations, additions and the rest. */
  changes: ApiChange[];
};

/** openapi/released/changelog.json: every release, newest first. */
export type ApiChangelog = { releases: ApiRelease[] };

export const CHANGELOG_FILE = "openapi/released/changelog.json";
/** Each released version of each document, as `<document>@<version>.yaml` (the test mode's bundled). */
export const HISTORY_DIR = "openapi/released/history";

const DOCUMENT_TITLES: Readonly<Record<ApiDocument, string>> = {
  "partner-payments": "Partner payments API",
  "test-mode": "Test mode (sandbox /_sandbox/ routes)",
};

export function readChangelog(root: string): ApiChangelog {
  return JSON.parse(readFileSync(path.join(root, CHANGELOG_FILE), "utf8")) as ApiChangelog;
}

const RANK: Record<Level, number> = { patch: 0, minor: 1, major: 2 };
const ORDER: Record<ApiChange["kind"], number> = {
  removed: 0,
  changed: 1,
  deprecated: 2,
  added: 3,
};

/** A release of `changes`, sorted breaking first, its level the largest of theirs (else a patch). */
export function releaseOf(
  release: Omit<ApiRelease, "level" | "changes">,
  changes: ApiChange[],
): ApiRelease {
  const level = changes.reduce<Level>(
    (max, change) => (RANK[change.level] > RANK[max] ? change.level : max),
    "patch",
  );
  const sorted = [...changes].sort(
    (a, b) =>
      Number(b.breaking) - Number(a.breaking) ||
      Number(b.kind === "deprecated") - Number(a.kind === "deprecated") ||
      ORDER[a.kind] - ORDER[b.kind],
  );
  return { ...release, level, changes: sorted };
}

/** `version` raised by `level` (semver, no prerelease). */
export function nextVersion(version: string, level: Level): string {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  if (level === "major") return `${major + 1}.0.0`;
  if (level === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** The anchor of a release on the changelog page: `partner-payments-1.0.0`. */
export const releaseId = (release: Pick<ApiRelease, "document" | "version">): string =>
  `${release.document}-${release.version}`;

/** Whether a release breaks something, so that it gets an upgrade guide. */
export const isBreaking = (release: ApiRelease): boolean =>
  release.changes.some((change) => change.breaking);

const code = (text: string) => `\`${text.replaceAll("`", "'")}\``;

/** The thing a change is about: its operation and where in it, or a package's export. */
function subject(change: ApiChange): string {
  const at = change.location;
  if (change.operation) {
    const { id, method, path: route } = change.operation;
    const name =
      id === undefined ? code(`${method} ${route}`) : `**${id}** ${code(`${method} ${route}`)}`;
    return at === "" ? name : `${name}, ${code(at)}`;
  }
  const where = change.where.startsWith("@org/") ? change.where : change.where || "the document";
  return code(where);
}

function touches(change: ApiChange): string {
  const parts = [
    change.clientMethods.length > 0
      ? `client ${change.clientMethods.map(code).join(", ")}`
      : undefined,
    change.mcpTools.length > 0 ? `MCP tool ${change.mcpTools.map(code).join(", ")}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : "";
}

/** One change as a Markdown list item, with why it breaks and what to do when that applies. */
function changeMarkdown(change: ApiChange): string {
  const lines = [
    `- ${subject(change)}: ${change.summary}${change.breaking ? " (**breaking**)" : ""}`,
  ];
  if (change.why) lines.push(`  - Why it breaks: ${change.why}.`);
  if (change.sunset) lines.push(`  - Sunset: ${change.sunset}.`);
  if (change.action) lines.push(`  - What to do: ${change.action}.`);
  const touched = touches(change);
  if (touched) lines.push(`  - Touches: ${touched}.`);
  return lines.join("\n");
}

const SECTIONS: [string, (change: ApiChange) => boolean][] = [
  ["Breaking changes", (change) => change.breaking],
  ["Deprecated", (change) => !change.breaking && change.kind === "deprecated"],
  ["Added", (change) => !change.breaking && change.kind === "added"],
  ["Changed", (change) => !change.breaking && change.kind === "changed"],
  ["Removed", (change) => !change.breaking && change.kind === "removed"],
];

/** A release's title: `Partner payments API 1.0.0 (2026-11-28)`. */
export function releaseTitle(release: ApiRelease): string {
  const when = release.date === null ? "not released yet" : release.date;
  return `${DOCUMENT_TITLES[release.document]} ${release.version} (${when})`;
}

/** One release in Markdown, its heading at `depth`, its changes in sections, breaking first. */
export function releaseMarkdown(release: ApiRelease, depth = 2, upgradeLink?: string): string {
  const hashes = "#".repeat(depth);
  const intro =
    release.previous === undefined
      ? "The first release of this document."
      : release.changes.length === 0
        ? `No change a consumer can feel since ${release.previous} (descriptions and examples only).`
        : `${release.level === "major" ? "A breaking release" : release.level === "minor" ? "New features, nothing breaks" : "Fixes, nothing breaks"}: ${release.changes.length} change(s) since ${release.previous}.${upgradeLink ? ` [How to upgrade](${upgradeLink}).` : ""}`;
  const parts = [`${hashes} ${releaseTitle(release)}`, "", intro];
  for (const [title, belongs] of SECTIONS) {
    const changes = release.changes.filter(belongs);
    if (changes.length === 0) continue;
    parts.push("", `${hashes}# ${title}`, "", ...changes.map(changeMarkdown));
  }
  return parts.join("\n");
}

/** The whole changelog in Markdown, newest first (unreleased changes, if given, on top). */
export function changelogMarkdown(releases: ApiRelease[]): string {
  return [
    "# API changelog",
    "",
    "Every change a consumer of the partner payments API or of its test mode can feel, release by release, newest first. In each release, breaking changes come first, with why they break and what to do; each change names the operation and the field, and the client methods and MCP tools it touches.",
    ...releases.flatMap((release) => ["", releaseMarkdown(release)]),
    "",
  ].join("\n");
}

/** The upgrade guide of a breaking release: every break, why, and what to do, as a checklist. */
export function upgradeMarkdown(release: ApiRelease): string {
  const breaking = release.changes.filter((change) => change.breaking);
  const methods = [...new Set(breaking.flatMap((change) => change.clientMethods))];
  const tools = [...new Set(breaking.flatMap((change) => change.mcpTools))];
  const deprecated = release.changes.filter((change) => change.kind === "deprecated");
  return [
    `# Upgrading to ${DOCUMENT_TITLES[release.document]} ${release.version}`,
    "",
    `Released ${release.date ?? "(not yet)"}${release.previous ? `, after ${release.previous}` : ""}. It breaks ${breaking.length} thing(s) an integration built on ${release.previous ?? "the previous version"} may rely on. Go through the list below; each item says what breaks, why, and what to change. An integration that uses none of the operations, fields, client methods and MCP tools named here upgrades without a change.`,
    "",
    "## Are you affected?",
    "",
    `- Operations: ${[...new Set(breaking.flatMap((change) => (change.operation?.id ? [code(change.operation.id)] : [])))].join(", ") || "none"}`,
    `- Client methods: ${methods.map(code).join(", ") || "none"}`,
    `- MCP tools: ${tools.map(code).join(", ") || "none"}`,
    "",
    "## What to change",
    "",
    ...breaking.map(changeMarkdown),
    ...(deprecated.length > 0
      ? [
          "",
          "## Deprecated in this release (still works, plan to move off)",
          "",
          ...deprecated.map(changeMarkdown),
        ]
      : []),
    "",
  ].join("\n");
}

/**
 * The API section of a package's CHANGELOG for the given releases: the changes that reach the
 * package, breaking first; empty when none does.
 */
export function packageSectionMarkdown(releases: ApiRelease[], packageName: string): string {
  const parts: string[] = [];
  for (const release of releases) {
    const changes = release.changes.filter((change) => change.packages.includes(packageName));
    if (changes.length === 0) continue;
    parts.push(releaseMarkdown({ ...release, changes }, 4));
  }
  if (parts.length === 0) return "";
  return ["### API changes", "", ...parts.flatMap((part) => [part, ""])].join("\n");
}
