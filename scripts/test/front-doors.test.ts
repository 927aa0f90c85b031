// Run by `npm test` outside turbo (it reads every package). Every workspace package is entered by
// its front door: the entries its package.json declares by name, none a wildcard, and no file
// runs into another package by a relative path, a test into another package's test/ included.
// Each package under packages/ (and the spec) has a src/index.ts, its contract. And no module
// imports itself back: the workspace's TypeScript imports each other in no circle.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The workspace's packages (pnpm-workspace.yaml: openapi, packages/*, bench, e2e), by folder. */
const folders = ["openapi", "bench", "e2e"]
  .concat(readdirSync(path.join(root, "packages")).map((name) => `packages/${name}`))
  .filter((folder) => existsSync(path.join(root, folder, "package.json")));

type Manifest = { name: string; exports?: Record<string, unknown> | string };
const manifests = new Map(
  folders.map((folder) => [
    folder,
    JSON.parse(readFileSync(path.join(root, folder, "package.json"), "utf8")) as Manifest,
  ]),
);
const folderOf = new Map([...manifests].map(([folder, manifest]) => [manifest.name, folder]));

/** The package folder a repository file belongs to; undefined for the root's own files. */
function packageOf(file: string): string | undefined {
  const relative = path.relative(root, file);
  return folders.find((folder) => relative === folder || relative.startsWith(`${folder}/`));
}

const SKIP = new Set(["node_modules", "dist", "generated", ".turbo", "build", "fixtures"]);
/**
 * The packages' sources: the files git tracks or would track, so not the folders .gitignore
 * leaves out, such as those other packages' tests make and remove while this file runs.
 */
const files = execFileSync(
  "git",
  ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...folders],
  { cwd: root, encoding: "utf8" },
)
  .split("\0")
  .filter((file) => /\.(ts|mts|cts|mjs|js)$/.test(file) && !file.endsWith(".d.ts"))
  .filter((file) => !file.split("/").some((part) => SKIP.has(part)))
  .map((file) => path.join(root, file))
  // A tracked file deleted in the working tree is not a source any more.
  .filter((file) => existsSync(file));

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)|\bnew URL\(\s*["'`](\.[^"'`$]*)["'`]\s*,\s*import\.meta\.url|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

/** The modules and files a source names: imports, exports from, requires, `new URL` paths. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "");
}

/** A package's declared entries: subpath → file (its import condition's, for a published one). */
function entriesOf(folder: string): Map<string, string> {
  const { exports = {} } = manifests.get(folder) ?? { exports: {} };
  const map = typeof exports === "string" ? { ".": exports } : exports;
  return new Map(
    Object.entries(map).map(([subpath, target]) => {
      const file = typeof target === "string" ? target : JSON.stringify(target);
      return [subpath, path.join(root, folder, file)];
    }),
  );
}

/** Where a relative specifier or a workspace package's entry leads, as a source file. */
function resolved(file: string, specifier: string): string | undefined {
  if (specifier.startsWith(".")) {
    const target = path.resolve(path.dirname(file), specifier);
    return existsSync(target) ? target : target.replace(/\.js$/, ".ts");
  }
  const [scope = "", name = "", ...rest] = specifier.split("/");
  const folder = folderOf.get(`${scope}/${name}`);
  if (folder === undefined) return undefined;
  const entry = entriesOf(folder).get(["."].concat(rest).join("/"));
  return entry !== undefined && /\.(ts|mts)$/.test(entry) ? entry : undefined;
}

describe("the workspace's packages", () => {
  it("declare their entries by name, none with a wildcard", () => {
    const wildcards = folders.flatMap((folder) =>
      [...entriesOf(folder).keys()].filter((s) => s.includes("*")).map((s) => `${folder}: ${s}`),
    );
    expect(wildcards).toEqual([]);
  });

  it("each have src/index.ts, their contract (every package under packages/, and the spec)", () => {
    const without = folders
      .filter((folder) => folder.startsWith("packages/") || folder === "openapi")
      .filter((folder) => !existsSync(path.join(root, folder, "src/index.ts")));
    expect(without).toEqual([]);
  });

  it("are imported only through an entry their package.json declares", () => {
    const undeclared = files.flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith("@org/"))
        .filter((specifier) => {
          const [scope = "", name = "", ...rest] = specifier.split("/");
          const folder = folderOf.get(`${scope}/${name}`);
          return folder !== undefined && !entriesOf(folder).has(["."].concat(rest).join("/"));
        })
        .map((specifier) => `${path.relative(root, file)} → ${specifier}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("never reach into another package by a relative path, nor into its test/", () => {
    const across = files.flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith("."))
        .filter((specifier) => {
          const target = packageOf(path.resolve(path.dirname(file), specifier));
          return target !== undefined && target !== packageOf(file);
        })
        .map((specifier) => `${path.relative(root, file)} → ${specifier}`),
    );
    expect(across).toEqual([]);
  });

  it("import each other in no circle", () => {
    const graph = new Map(
      files.map((file) => [
        file,
        specifiers(file)
          .map((specifier) => resolved(file, specifier))
          .filter((target): target is string => target !== undefined && files.includes(target)),
      ]),
    );
    const done = new Set<string>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file)) {
        const circle = [...trail.slice(trail.indexOf(file)), file];
        circles.push(circle.map((f) => path.relative(root, f)).join(" → "));
        return;
      }
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
