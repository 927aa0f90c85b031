// The sandbox's folders in layers, as the README's table states them: each folder imports only the
// folders above it in the table (and itself), every folder of src/ has its row, a feature folder is
// entered from outside by its index.ts (its typed controls by their controls.ts, the store, which
// implements a feature's rows, by the rows file), and the store imports no answer. Read from the sources' imports, so that an import that
// breaks the table, or a table that no longer tells the code, fails here.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const src = path.join(root, "src");

/** The test-mode features: a folder each, entered by its index.ts. */
const FEATURES = [
  "clock",
  "events",
  "simulations",
  "faults",
  "rate-limit",
  "request-log",
  "readiness",
  "seed",
  "money",
  "health",
];

/** The table's rows, top first: `src/<folder>/`, `src/` (the files at the top) or an entry's. */
function tableRows(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const rows = [...readme.matchAll(/^\| `(src\/[^`]*)`/gm)].map((match) => match[1] as string);
  expect(rows.length, "the README has a table of src/'s folders").toBeGreaterThan(10);
  return rows;
}

/** The entries with a row of their own, below everything they reach. */
const ENTRIES = ["index.ts", "browser.ts"];

/** A source file's row: its folder, `src/` for the files at the top, its own for an entry. */
function rowOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length > 1) return `src/${parts[0]}/`;
  return ENTRIES.includes(parts[0] as string) ? `src/${parts[0]}` : "src/";
}

const sources = readdirSync(src, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts"))
  .map((file) => path.join(src, file));

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/g;

/** The files of src/ a file imports or re-exports from, resolved (`./x.js` is `./x.ts`). */
function imports(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(SPECIFIER)].map((match) =>
    path.resolve(path.dirname(file), (match[1] ?? match[2] ?? "").replace(/\.js$/, ".ts")),
  );
}

const shown = (file: string) => path.relative(root, file);

describe("the sandbox's layers", () => {
  const rows = tableRows();

  it("are every folder of src/, each named once in the README's table", () => {
    const folders = readdirSync(src)
      .filter((name) => statSync(path.join(src, name)).isDirectory())
      .map((name) => `src/${name}/`);
    expect(new Set(rows).size, "a row named twice").toBe(rows.length);
    expect([...rows].sort()).toEqual(
      [...folders, "src/", ...ENTRIES.map((entry) => `src/${entry}`)].sort(),
    );
  });

  it("import only the layers above them", () => {
    const wrong = sources.flatMap((file) =>
      imports(file)
        .filter((target) => rows.indexOf(rowOf(target)) > rows.indexOf(rowOf(file)))
        .map(
          (target) =>
            `${shown(file)} → ${shown(target)} (${rowOf(file)} is above ${rowOf(target)})`,
        ),
    );
    expect(wrong).toEqual([]);
  });

  it("enter a feature by its index.ts, its controls by controls.ts, its rows from the store", () => {
    for (const feature of FEATURES) {
      expect(sources, feature).toContain(path.join(src, feature, "index.ts"));
    }
    const wrong = sources.flatMap((file) =>
      imports(file)
        .filter((target) => {
          const [folder, name] = path.relative(src, target).split(path.sep);
          if (!FEATURES.includes(folder ?? "") || rowOf(file) === `src/${folder}/`) return false;
          if (name === "index.ts" || name === "controls.ts") return false;
          return !(rowOf(file) === "src/store/" && name?.endsWith("-rows.ts"));
        })
        .map((target) => `${shown(file)} → ${shown(target)}`),
    );
    expect(wrong).toEqual([]);
  });

  it("keep the store to rows and records: it builds no answer and sends nothing", () => {
    const answering = ["answers", "api", "request", "http"].map((folder) => `src/${folder}/`);
    const wrong = sources
      .filter((file) => rowOf(file) === "src/store/")
      .flatMap((file) =>
        imports(file)
          .filter((target) => answering.includes(rowOf(target)))
          .map((target) => `${shown(file)} → ${shown(target)}`),
      );
    expect(wrong).toEqual([]);
  });

  it("compile the typed controls over the generated types alone (the surface guard does)", () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const target of imports(file)) visit(target);
    };
    visit(path.join(src, "controls.ts"));
    const allowed = (file: string) =>
      path.basename(file) === "controls.ts" ||
      file === path.join(src, "test-mode", "client.ts") ||
      file === path.join(src, "generated", "test-mode.ts");
    expect([...seen].filter((file) => !allowed(file)).map(shown)).toEqual([]);
  });

  it("leave the composition to sandbox.ts: no folder imports it but the HTTP glue's types", () => {
    const sandbox = path.join(src, "sandbox.ts");
    const importers = sources
      .filter((file) => imports(file).includes(sandbox))
      .map(shown)
      .filter((file) => !file.startsWith(path.join("src", "http")));
    expect(importers.sort()).toEqual([path.join("src", "index.ts")]);
  });
});
