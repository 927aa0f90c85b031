// `spec:diff --check`: each change of a document needs a changeset added with it, on each published
// package it reaches, at the level it needs (a break a major, an addition or a deprecation at least
// a minor). "Added with it" is read from git: a change is introduced by the oldest commit, since the
// document's released baseline, whose version of the document has it (or by the working tree), and
// a changeset counts only if it was added by that commit, a commit descending from it, or is not
// committed yet. A changeset pending from before (about something else) never counts, and neither
// does one on a package that releases nothing (`@org/payments-spec` is private and ignored).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { readChangesets } from "@changesets/read";
import {
  bundleDocument,
  loadBundledSpec,
  loadSpec,
  type OpenApiDocument,
} from "@org/payments-spec";
import { diffSpecs } from "@org/payments-spec/diff";
import { parse } from "yaml";
import { type ApiChange, type ApiDocument, type Level, PUBLISHED_PACKAGES } from "./api-changes.ts";

/** Where each document and its released baseline live, relative to the repository. */
const DOCUMENT_FILES: Readonly<Record<ApiDocument, { head: string; baseline: string }>> = {
  "partner-payments": {
    head: "openapi/partner-payments.yaml",
    baseline: "openapi/released/partner-payments.yaml",
  },
  "test-mode": { head: "openapi/test-mode.yaml", baseline: "openapi/released/test-mode.yaml" },
};

const WORKING_TREE = "the working tree";
const PUBLISHED = new Set(Object.values(PUBLISHED_PACKAGES).flat());
const RANK: Record<Level, number> = { patch: 0, minor: 1, major: 2 };

type Changeset = {
  id: string;
  releases: { name: string; type: string }[];
  /** The commit that added it, or the working tree when it is not committed. */
  addedIn: string;
};

export type CheckVerdict = { failed: boolean; message: string };

/**
 * The verdict on every change of both documents (as `describeChanges` tells them, against the
 * released baselines): undefined when none needs a changeset.
 */
export async function checkChangesets(
  root: string,
  changes: ApiChange[],
): Promise<CheckVerdict | undefined> {
  const needing = changes.filter((change) => change.level !== "patch");
  if (needing.length === 0) return undefined;
  const git = gitOf(root);
  const changesets = await pendingChangesets(root, git);
  const introducedIn = git ? introductions(root, git, needing) : undefined;
  const problems: string[] = [];
  const covering = new Set<string>();
  const descendants = new Map<string, Set<string>>();
  const levels = new Map<string, Level>();
  for (const change of needing) {
    const since = introducedIn?.get(change);
    const counted =
      since === undefined ? changesets : changesetsSince(git, since, changesets, descendants);
    const missing = change.packages.filter((name) => {
      const found = counted.find((changeset) =>
        changeset.releases.some(
          (r) => r.name === name && RANK[r.type as Level] >= RANK[change.level],
        ),
      );
      if (found) covering.add(found.id);
      return !found;
    });
    if (missing.length > 0) {
      problems.push(problem(change, missing, since, changesets));
      for (const name of missing) {
        const level = levels.get(name);
        if (!level || RANK[change.level] > RANK[level]) levels.set(name, change.level);
      }
    }
  }
  const breaking = needing.filter((change) => change.breaking).length;
  if (problems.length === 0) {
    return {
      failed: false,
      message: `\n${breaking} breaking change(s) and ${needing.length - breaking} addition(s) or deprecation(s), covered by the changeset(s) added with them: ${[...covering].sort().join(", ")}.`,
    };
  }
  const frontMatter = [...levels].map(([name, level]) => `  "${name}": ${level}`).join("\n");
  return {
    failed: true,
    message: [
      "",
      `✖ ${problems.length} change(s) of the API's documents have no changeset added with them:`,
      ...problems,
      "",
      "  Undo the change, or record it: run `npm run changeset`, choose for each package the bump named",
      "  above, and say what changed and what a partner does about it; or add a file .changeset/<name>.md:",
      "  ---",
      frontMatter,
      "  ---",
      "  <what changed, why it breaks, what to do>",
      "  A changeset pending from before this change, or one on @org/payments-spec (private: it releases",
      "  nothing), does not count.",
    ].join("\n"),
  };
}

function problem(
  change: ApiChange,
  missing: string[],
  since: string | undefined,
  changesets: Changeset[],
): string {
  const what = change.breaking
    ? "breaking"
    : change.kind === "deprecated"
      ? "deprecation"
      : "addition";
  const older = changesets.filter(
    (changeset) =>
      changeset.addedIn !== WORKING_TREE &&
      changeset.releases.some(
        (r) => missing.includes(r.name) && RANK[r.type as Level] >= RANK[change.level],
      ),
  );
  const releasingNothing = changesets.filter((changeset) =>
    changeset.releases.every((r) => !PUBLISHED.has(r.name)),
  );
  return [
    `  ✖ ${change.document}: ${change.where}: ${change.summary} [${change.rule}, ${what}]`,
    `    needs a ${change.level} changeset on ${missing.join(", ")}${since === undefined ? "" : `, added with the change (in ${since === WORKING_TREE ? since : `commit ${since.slice(0, 10)} or later`})`}`,
    ...(older.length > 0 && since !== undefined
      ? [
          `    (pending from before the change, so about something else: ${listed(older.map((c) => c.id))})`,
        ]
      : []),
    ...(releasingNothing.length > 0
      ? [
          `    (on no published package, so they release nothing: ${releasingNothing.map((c) => `${c.id} (${c.releases.map((r) => r.name).join(", ")})`).join(", ")})`,
        ]
      : []),
  ].join("\n");
}

/** Names, the first five of them and how many more. */
function listed(names: string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

type Git = (...args: string[]) => string;

function gitOf(root: string): Git | undefined {
  const git: Git = (...args) =>
    execFileSync("git", ["-C", root, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 256 * 1024 * 1024,
    });
  try {
    return git("rev-parse", "--is-inside-work-tree").trim() === "true" &&
      git("rev-parse", "--verify", "-q", "HEAD").trim() !== ""
      ? git
      : undefined;
  } catch {
    return undefined;
  }
}

/** The pending changesets, each with the commit that added it. */
async function pendingChangesets(root: string, git: Git | undefined): Promise<Changeset[]> {
  const read = await readChangesets(root);
  const addedIn = new Map<string, string>();
  const committed = new Set<string>();
  if (git) {
    for (const file of git("ls-tree", "--name-only", "HEAD", ".changeset/").split("\n")) {
      if (file !== "") committed.add(path.basename(file, ".md"));
    }
    let commit = "";
    for (const line of git(
      "log",
      "--diff-filter=A",
      "--format=commit %H",
      "--name-only",
      "--",
      ".changeset/",
    ).split("\n")) {
      if (line.startsWith("commit ")) commit = line.slice("commit ".length);
      else if (line.endsWith(".md")) {
        const id = path.basename(line, ".md");
        if (!addedIn.has(id)) addedIn.set(id, commit);
      }
    }
  }
  return read.map((changeset) => ({
    id: changeset.id,
    releases: changeset.releases,
    addedIn: committed.has(changeset.id) ? (addedIn.get(changeset.id) ?? "") : WORKING_TREE,
  }));
}

/** The changesets added by `since`, a commit descending from it, or not committed. */
function changesetsSince(
  git: Git | undefined,
  since: string,
  changesets: Changeset[],
  descendants: Map<string, Set<string>>,
): Changeset[] {
  if (since === WORKING_TREE || !git) {
    return changesets.filter((changeset) => changeset.addedIn === WORKING_TREE);
  }
  let after = descendants.get(since);
  if (after === undefined) {
    after = new Set([since, ...git("rev-list", "--ancestry-path", `${since}..HEAD`).split("\n")]);
    descendants.set(since, after);
  }
  const commits = after;
  return changesets.filter(
    (changeset) => changeset.addedIn === WORKING_TREE || commits.has(changeset.addedIn),
  );
}

/**
 * The commit (or the working tree) that introduced each change: for a change on the wire, the
 * oldest version of its document since the released baseline whose diff has it; for a change of
 * a package's exports, which only the document's wire changes cause, the newest introduction among
 * that document's wire changes of the same severity (or the document's newest version).
 */
function introductions(root: string, git: Git, changes: ApiChange[]): Map<ApiChange, string> {
  const found = new Map<ApiChange, string>();
  for (const [document, files] of Object.entries(DOCUMENT_FILES) as [
    ApiDocument,
    (typeof DOCUMENT_FILES)[ApiDocument],
  ][]) {
    const ofDocument = changes.filter((change) => change.document === document);
    if (ofDocument.length === 0) continue;
    const baselineCommit = git("log", "-1", "--format=%H", "--", files.baseline).trim();
    const range = baselineCommit === "" ? "HEAD" : `${baselineCommit}..HEAD`;
    const commits = git("log", "--format=%H", range, "--", files.head).split("\n").filter(Boolean);
    const dirty = isDirty(git, files.head);
    const order = [...commits.reverse(), ...(dirty ? [WORKING_TREE] : [])];
    const wire = ofDocument.filter((change) => !change.rule.startsWith("package-"));
    // Keyed by rule, place and what changed: one place can have two changes under one rule (a
    // schema's minProperties and maxProperties both widened), each introduced by its own commit.
    const wanted = new Map<string, ApiChange[]>();
    for (const change of wire) {
      const key = `${change.rule} ${change.where} ${change.summary}`;
      wanted.set(key, [...(wanted.get(key) ?? []), change]);
    }
    const baselineFile = path.join(root, files.baseline);
    const baseline =
      document === "test-mode" ? loadBundledSpec(baselineFile) : loadSpec(baselineFile);
    const versionAt = versionsOf(root, document, commits, files.head);
    for (const version of order) {
      if (wanted.size === 0) break;
      if (version === WORKING_TREE) break;
      const doc = versionAt(version);
      if (doc === undefined) continue;
      const diff = diffSpecs(baseline, doc);
      for (const change of [...diff.breaking, ...diff.additions]) {
        // The summary as describeChanges makes it: the message up to its advice.
        const summary = change.message.split("; ")[0] ?? change.message;
        const key = `${change.rule} ${change.where} ${summary}`;
        for (const pending of wanted.get(key) ?? []) found.set(pending, version);
        wanted.delete(key);
      }
    }
    for (const change of [...wanted.values()].flat()) found.set(change, WORKING_TREE);
    const newest = (list: ApiChange[]) =>
      list
        .map((change) => found.get(change) ?? WORKING_TREE)
        .sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
    const latest = order.at(-1) ?? WORKING_TREE;
    for (const change of ofDocument) {
      if (found.has(change)) continue;
      const alike = wire.filter((other) => other.breaking === change.breaking);
      found.set(change, newest(alike) ?? newest(wire) ?? latest);
    }
  }
  return found;
}

function isDirty(git: Git, file: string): boolean {
  return git("status", "--porcelain", "--", file).trim() !== "";
}

/**
 * The versions of a document read so far in this process, by the blobs they are made of (a test
 * or a run of `--check` reads the same versions again): parsed once, never changed after.
 */
const parsedVersions = new Map<string, OpenApiDocument>();

/**
 * A document as it was at each of `commits` (the test mode's bundled with the API's of the same
 * commit), the files read from git at once and each parsed when first asked for. A version
 * committed broken (not YAML, or the file deleted) is none: it has, so introduces, no change.
 */
function versionsOf(
  root: string,
  document: ApiDocument,
  commits: string[],
  file: string,
): (commit: string) => OpenApiDocument | undefined {
  const api = path.join(path.dirname(file), "partner-payments.yaml");
  const files = document === "partner-payments" ? [file] : [file, api];
  const blobs = blobsAt(
    root,
    commits.flatMap((commit) => files.map((name) => `${commit}:${name}`)),
  );
  const parsed = (blob: Blob) => {
    let doc = parsedVersions.get(blob.id);
    if (doc === undefined) {
      doc = parse(blob.text) as OpenApiDocument;
      parsedVersions.set(blob.id, doc);
    }
    return doc;
  };
  return (commit) => {
    const own = blobs.get(`${commit}:${file}`);
    const withApi = blobs.get(`${commit}:${api}`);
    if (own === undefined || withApi === undefined) return undefined;
    try {
      if (document === "partner-payments") return parsed(own);
      const key = `${own.id} ${withApi.id}`;
      let doc = parsedVersions.get(key);
      if (doc === undefined) {
        doc = bundleDocument(parse(own.text), () => parsed(withApi));
        parsedVersions.set(key, doc);
      }
      return doc;
    } catch {
      return undefined;
    }
  };
}

type Blob = { id: string; text: string };

/** The files named `<commit>:<path>`, by that name, in one `git cat-file --batch` (none when missing). */
function blobsAt(root: string, names: string[]): Map<string, Blob> {
  const output = execFileSync("git", ["-C", root, "cat-file", "--batch"], {
    input: names.map((name) => `${name}\n`).join(""),
    stdio: ["pipe", "pipe", "ignore"],
    maxBuffer: 1024 * 1024 * 1024,
  });
  const blobs = new Map<string, Blob>();
  let at = 0;
  for (const name of names) {
    const end = output.indexOf(10, at);
    const [id = "", type, size] = output.subarray(at, end).toString("utf8").split(" ");
    if (type === "missing") {
      at = end + 1;
      continue;
    }
    if (type !== "blob") throw new Error(`git has no file ${name}`);
    const start = end + 1;
    blobs.set(name, { id, text: output.subarray(start, start + Number(size)).toString("utf8") });
    at = start + Number(size) + 1;
  }
  return blobs;
}
