// Run by `npm test` outside turbo (it reads the root README and the packages' folders). The root
// README's table of layers names the folders of the sandbox and of the engine's engine/: a folder
// added, renamed or removed without the table fails here, naming it. The READMEs and the guides
// name only files that exist (a test moved without its mention fails here).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The "Holds" cell of the README's layer table row for `layer`. */
function holds(layer: string): string {
  const row = readme.split("\n").find((line) => line.startsWith(`| \`${layer}\``));
  if (row === undefined) throw new Error(`the root README's layer table has no row for ${layer}`);
  return row.split("|")[2] ?? "";
}

/** The folders a cell names, written as `name/`. */
const namedFolders = (cell: string) =>
  [...cell.matchAll(/`([a-z][a-z-]*)\/`/g)].map((match) => match[1]).sort();

const subfolders = (folder: string) =>
  readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

describe("the root README's layer table", () => {
  it.for(["packages/sandbox/src", "packages/engine/src/engine"])(
    "names every folder of %s, and no other",
    (folder) => {
      const layer = folder === "packages/sandbox/src" ? folder : `${folder}/`;
      expect(namedFolders(holds(layer))).toEqual(subfolders(folder));
    },
  );
});

/** The Markdown a reader of the repository or the docs site reads. */
const documents = [
  "README.md",
  "openapi/README.md",
  ...readdirSync(path.join(root, "packages")).map((name) => `packages/${name}/README.md`),
  ...readdirSync(path.join(root, "packages/docs/guides")).map(
    (file) => `packages/docs/guides/${file}`,
  ),
].filter((file) => file.endsWith(".md") && existsSync(path.join(root, file)));

describe("the READMEs and the guides", () => {
  it.for(documents)("%s names only files of the repository that exist", (file) => {
    const text = readFileSync(path.join(root, file), "utf8");
    // A path written from the repository's root, in code: `packages/…/pricing.test.ts`.
    const named = [...text.matchAll(/`((?:packages|openapi|e2e|bench)\/[\w./-]+\.[a-z]+)`/g)].map(
      (match) => match[1] ?? "",
    );
    expect(named.filter((name) => !existsSync(path.join(root, name)))).toEqual([]);
  });
});

describe("the testing package's README", () => {
  it("gives every export of its entry a line of its own", () => {
    const entry = readFileSync(path.join(root, "packages/testing/src/index.ts"), "utf8");
    const exported = [...entry.matchAll(/export \{([^}]*)\}/g)].flatMap((match) =>
      (match[1] ?? "")
        .split(",")
        .map((name) => name.replace(/^\s*type\s+/, "").trim())
        .filter((name) => name !== ""),
    );
    expect(exported.length).toBeGreaterThan(50);
    const lines = readFileSync(path.join(root, "packages/testing/README.md"), "utf8").split("\n");
    const missing = exported.filter(
      (name) => !lines.some((line) => new RegExp(`^- \`${name}[\`(]`).test(line)),
    );
    expect(missing).toEqual([]);
  });
});

describe("the bench's README", () => {
  const text = readFileSync(path.join(root, "bench/README.md"), "utf8");

  it("links only to files of the repository that exist", () => {
    const linked = [...text.matchAll(/\]\((\.\.\/[^)#\s]+)/g)].map((match) => match[1] ?? "");
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((link) => !existsSync(path.join(root, "bench", link)))).toEqual([]);
  });

  it('sends the reader only to sections it has (see "…" below)', () => {
    const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((match) => match[1]);
    const named = [...text.matchAll(/see "([^"]+)" (?:below|above)/g)].map((match) => match[1]);
    expect(named.filter((name) => !headings.includes(name))).toEqual([]);
  });
});

describe("the packages' Dependencies sections", () => {
  const withSection = readdirSync(path.join(root, "packages")).filter((name) => {
    const file = path.join(root, "packages", name, "README.md");
    return existsSync(file) && readFileSync(file, "utf8").includes("\n## Dependencies\n");
  });
  const packageName = /^@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?$/;

  it.for(withSection)(
    "packages/%s: names each dependency it declares, and lists no other",
    (name) => {
      const text = readFileSync(path.join(root, "packages", name, "README.md"), "utf8");
      const section = text.split("\n## Dependencies\n")[1]?.split(/\n## /)[0] ?? "";
      const manifest = JSON.parse(
        readFileSync(path.join(root, "packages", name, "package.json"), "utf8"),
      ) as Record<string, Record<string, string> | undefined>;
      const runtime = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
      const declared = new Set([...runtime, ...Object.keys(manifest.devDependencies ?? {})]);
      const named = (text: string) =>
        [...text.matchAll(/`([^`\s]+)`|\*\*([^*\s]+)\*\*/g)]
          .map((match) => match[1] ?? match[2] ?? "")
          .filter((word) => packageName.test(word));
      // A bullet that starts with a package lists it as one of this package's, up to its ": " or " — ".
      const listed = section
        .split(/\n(?=- )/)
        .filter((bullet) => /^- (`|\*\*)/.test(bullet))
        .flatMap((bullet) => named(bullet.split(/: | — /)[0] ?? ""));
      expect(runtime.filter((dependency) => !named(section).includes(dependency))).toEqual([]);
      expect(listed.filter((dependency) => !declared.has(dependency))).toEqual([]);
    },
  );
});
