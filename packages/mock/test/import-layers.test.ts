// The layers and which may use which (see the root README's "Layout"). In packages/engine: values at
// the bottom, http on them, the engine (Prism's adapter, validation, caches, response shaping) on
// both, and the package's entry over all three. The sandbox (packages/sandbox) and the proxy on the
// engine's entry and never on each other; the mock's fixtures on the sandbox's entry; listen and
// logs tail on nothing of ours (they speak HTTP to a sandbox); impact on the spec's diff alone; the mock's entry points (its CLIs
// among them) on top, composing them through their entries. Read from the sources' imports, so a new import that breaks the layering fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../../", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** The packages checked here, by the folder each lives in. */
const FOLDERS = {
  "@org/payments-engine": path.join(packages, "engine"),
  "@org/payments-sandbox": path.join(packages, "sandbox"),
  "@org/payments-mock": path.join(packages, "mock"),
} as const;
type PackageName = keyof typeof FOLDERS;
const srcOf = (name: PackageName) => path.join(FOLDERS[name], "src");

type Layer =
  | "engine:values"
  | "engine:http"
  | "engine:engine"
  | "engine:entry"
  | "sandbox"
  | "mock:output"
  | "mock:proxy"
  | "mock:fixtures"
  | "mock:listen"
  | "mock:logs"
  | "mock:msw"
  | "mock:impact"
  | "mock:entry";
/** The layers each layer may import from, besides itself. */
const MAY_USE: Record<Layer, readonly Layer[]> = {
  "engine:values": [],
  "engine:http": ["engine:values"],
  "engine:engine": ["engine:http", "engine:values"],
  "engine:entry": ["engine:engine", "engine:http", "engine:values"],
  sandbox: ["engine:entry"],
  // What a command prints of others' words: the key taken out, control characters escaped.
  "mock:output": [],
  "mock:proxy": ["engine:entry", "mock:output"],
  // The fixture runner reads the test-mode document, which the sandbox's entry declares.
  "mock:fixtures": ["engine:entry", "sandbox", "mock:output"],
  // listen and logs tail speak HTTP to a sandbox elsewhere: they need none of it in process.
  "mock:listen": [],
  "mock:logs": [],
  // The MSW handlers answer with the sandbox in the test's process or page.
  "mock:msw": ["engine:entry", "sandbox"],
  // impact's changes are the spec package's diff, on documents it is given: nothing of ours in process.
  "mock:impact": [],
  "mock:entry": [
    "engine:entry",
    "sandbox",
    "mock:output",
    "mock:proxy",
    "mock:fixtures",
    "mock:listen",
    "mock:logs",
    "mock:impact",
  ],
};

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|\brequire(?:\.resolve)?\(\s*[`"]([^`"]+)[`"]/g;

/** Every module a source or built file names: imports, exports from, dynamic imports, requires. */
function specifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}

const sources = (Object.keys(FOLDERS) as PackageName[]).flatMap((name) =>
  readdirSync(srcOf(name), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .filter((file) => !file.startsWith(`generated${path.sep}`))
    .map((file) => path.join(srcOf(name), file)),
);

/** A file's name inside the packages' folder, for messages. */
const shown = (file: string) => path.relative(packages, file);

function packageOf(file: string): PackageName | undefined {
  return (Object.keys(FOLDERS) as PackageName[]).find((name) =>
    file.startsWith(FOLDERS[name] + path.sep),
  );
}

function layerOf(file: string): Layer {
  const name = packageOf(file);
  if (name === "@org/payments-sandbox") return "sandbox";
  const [first, ...rest] = path.relative(srcOf(name ?? "@org/payments-mock"), file).split(path.sep);
  if (name === "@org/payments-engine") {
    return rest.length === 0 ? "engine:entry" : (`engine:${first}` as Layer);
  }
  return rest.length === 0 ? "mock:entry" : (`mock:${first}` as Layer);
}

/** A package's declared entries (its package.json `exports`), as files. */
function entriesOf(name: PackageName): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(path.join(FOLDERS[name], "package.json"), "utf8"));
  return new Map(
    Object.entries(exports as Record<string, unknown>)
      .filter((entry): entry is [string, string] => typeof entry[1] === "string")
      .map(([subpath, file]) => [subpath, path.join(FOLDERS[name], file)]),
  );
}

/**
 * The source files a file imports, resolved: `./x.js` is `./x.ts`; a package checked here is the
 * file its `exports` names for the subpath, or `undeclared:` and the specifier when it names none.
 */
function localImports(file: string): string[] {
  return specifiers(readFileSync(file, "utf8")).flatMap((specifier) => {
    if (specifier.startsWith(".")) {
      return [path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts"))];
    }
    const [scope = "", pkg = "", ...rest] = specifier.split("/");
    const name = `${scope}/${pkg}` as PackageName;
    if (!(name in FOLDERS)) return [];
    const entry = entriesOf(name).get(["."].concat(rest).join("/"));
    return [entry ?? `undeclared:${specifier}`];
  });
}

/** The engine's concern folders (engine/src/engine/<folder>/), each entered by its index.ts. */
const engineRoot = path.join(srcOf("@org/payments-engine"), "engine");
const concernOf = (file: string) => {
  const parts = path.relative(engineRoot, file).split(path.sep);
  return parts.length > 1 && !parts[0]?.startsWith("..") ? parts[0] : undefined;
};

/** The circles of a graph given as edges, each as `a → b → a`. */
function circlesOf(edges: Map<string, readonly string[]>, show = (node: string) => node) {
  const done = new Set<string>();
  const circles: string[] = [];
  const visit = (node: string, trail: string[]) => {
    if (trail.includes(node)) {
      circles.push([...trail.slice(trail.indexOf(node)), node].map(show).join(" → "));
      return;
    }
    if (done.has(node)) return;
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    done.add(node);
  };
  for (const node of edges.keys()) visit(node, []);
  return circles;
}

/**
 * The names a file imports or re-exports from `target` (`import { a, type B as C } from "…"` and
 * `export { a } from "…"`: a, B).
 */
function namesImported(file: string, target: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)]
    .filter(([, , specifier = ""]) =>
      specifier.startsWith(".")
        ? path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")) === target
        : false,
    )
    .flatMap(([, names = ""]) =>
      names
        .split(",")
        .map(
          (name) =>
            name
              .trim()
              .replace(/^type\s+/, "")
              .split(/\s+as\s+/)[0] ?? "",
        )
        .filter(Boolean),
    );
}

describe("the layers of the engine, the sandbox and the mock", () => {
  it("are the ones the Layout names", () => {
    expect(new Set(sources.map(layerOf))).toEqual(new Set(Object.keys(MAY_USE)));
  });

  it("use only the layers below them", () => {
    const wrong = sources.flatMap((file) =>
      localImports(file)
        .filter((target) => !target.startsWith("undeclared:"))
        .filter((target) => {
          const [from, to] = [layerOf(file), layerOf(target)];
          return from !== to && !MAY_USE[from].includes(to);
        })
        .map((target) => `${shown(file)} → ${shown(target)}`),
    );
    expect(wrong).toEqual([]);
  });

  it("enter another package only by an entry it declares, and never by a relative path", () => {
    const wrong = sources.flatMap((file) =>
      localImports(file)
        .filter(
          (target) => target.startsWith("undeclared:") || packageOf(target) !== packageOf(file),
        )
        .filter((target) => {
          const name = packageOf(target);
          return name === undefined || ![...entriesOf(name).values()].includes(target);
        })
        .map(
          (target) =>
            `${shown(file)} → ${target.startsWith("undeclared:") ? target : shown(target)}`,
        ),
    );
    expect(wrong).toEqual([]);
    const relative = sources.flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((specifier) => specifier.startsWith("."))
        .filter(
          (specifier) => packageOf(path.resolve(path.dirname(file), specifier)) !== packageOf(file),
        )
        .map((specifier) => `${shown(file)} → ${specifier}`),
    );
    expect(relative).toEqual([]);
  });

  it("declare each entry by name, none with a wildcard, and each package an src/index.ts", () => {
    for (const name of Object.keys(FOLDERS) as PackageName[]) {
      if (name === "@org/payments-mock") continue; // published: its exports point at dist/
      const entries = entriesOf(name);
      expect(
        [...entries.keys()].filter((subpath) => subpath.includes("*")),
        name,
      ).toEqual([]);
      expect(entries.get("."), name).toBe(path.join(srcOf(name), "index.ts"));
    }
    expect(readdirSync(srcOf("@org/payments-mock"))).toContain("index.ts");
  });

  it("import each other in no circle", () => {
    const graph = new Map(sources.map((file) => [file, localImports(file)]));
    expect(circlesOf(graph, shown)).toEqual([]);
  });

  it("split the engine by concern, each folder entered by its index.ts, in no circle", () => {
    const concerns = new Set(sources.map(concernOf).filter((folder) => folder !== undefined));
    expect(concerns).toEqual(new Set(["prism", "validation", "caches", "shaping"]));
    for (const folder of concerns) {
      expect(sources, folder).toContain(path.join(engineRoot, folder, "index.ts"));
    }
    const edges = new Map<string, string[]>();
    const sideDoors: string[] = [];
    for (const file of sources) {
      for (const target of localImports(file)) {
        const [from, to] = [concernOf(file), concernOf(target)];
        if (to === undefined || from === to) continue;
        if (path.basename(target) !== "index.ts")
          sideDoors.push(`${shown(file)} → ${shown(target)}`);
        if (from !== undefined) edges.set(from, [...(edges.get(from) ?? []), to]);
      }
    }
    expect(sideDoors).toEqual([]);
    expect(circlesOf(edges)).toEqual([]);
  });

  it("reach into Prism from one adapter only", () => {
    const importers = sources
      .filter((file) =>
        specifiers(readFileSync(file, "utf8")).some((name) => name.startsWith("@stoplight/")),
      )
      .map(shown);
    expect(importers).toEqual([path.join("engine", "src", "engine", "prism", "prism-adapter.ts")]);
  });

  it("keep the sandbox's store to rows and records: no HTTP module, no answer", () => {
    const sandbox = srcOf("@org/payments-sandbox");
    const store = path.join(sandbox, "store") + path.sep;
    const answering = [
      srcOf("@org/payments-engine") + path.sep,
      path.join(sandbox, "answer") + path.sep,
      path.join(sandbox, "api") + path.sep,
      path.join(sandbox, "control") + path.sep,
      path.join(sandbox, "http") + path.sep,
    ];
    const wrong = sources
      .filter((file) => file.startsWith(store))
      .flatMap((file) =>
        localImports(file)
          .filter((target) => answering.some((folder) => target.startsWith(folder)))
          .map((target) => `${shown(file)} → ${shown(target)}`),
      );
    expect(wrong).toEqual([]);
  });

  it("import each other in no circle between the sandbox's concern folders", () => {
    const sandbox = srcOf("@org/payments-sandbox");
    const folderOf = (file: string) => {
      const parts = path.relative(sandbox, file).split(path.sep);
      if (parts.length > 1) return parts[0] as string;
      // The entries (index.ts, browser.ts) are above every folder; the files at the top
      // (compose-sandbox.ts, sandbox.ts) compose them below them.
      return parts[0] === "index.ts" || parts[0] === "browser.ts" ? "entry" : "sandbox.ts";
    };
    const edges = new Map<string, string[]>();
    for (const file of sources.filter((f) => f.startsWith(sandbox + path.sep))) {
      for (const target of localImports(file).filter((t) => t.startsWith(sandbox + path.sep))) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to) edges.set(from, [...(edges.get(from) ?? []), to]);
      }
    }
    expect(edges.size, "the sandbox has concern folders").toBeGreaterThan(4);
    expect(circlesOf(edges)).toEqual([]);
  });

  it("route a request once, with Prism's router", () => {
    // Prism's router is one export of the adapter. Whatever routes has to reach it, so the files
    // that import it, and the files that import those routing names in turn, are all the routing
    // there is: one cache of the router, used by the engine alone, whose entry gives none of it out.
    const adapter = path.join(engineRoot, "prism", "prism-adapter.ts");
    const prismIndex = path.join(engineRoot, "prism", "index.ts");
    const cachesIndex = path.join(engineRoot, "caches", "index.ts");
    const routerNames = ["prismRoute"];
    const importersOf = (target: string, names: readonly string[]) =>
      sources.filter((file) => namesImported(file, target).some((name) => names.includes(name)));
    // The adapter's router leaves its folder only by the folder's index.
    expect(importersOf(adapter, routerNames).map(shown)).toEqual([shown(prismIndex)]);
    const routeCache = importersOf(prismIndex, routerNames);
    expect(routeCache.map(shown)).toEqual([
      path.join("engine", "src", "engine", "caches", "route-cache.ts"),
    ]);
    const cachedRouters = namesImported(cachesIndex, routeCache[0] as string);
    expect(cachedRouters).toHaveLength(1);
    expect(importersOf(cachesIndex, cachedRouters).map(shown)).toEqual([
      path.join("engine", "src", "engine", "prism-engine.ts"),
    ]);
    // The engine's entry gives none of it out, and nothing passes a concern folder on wholesale.
    const entryText = readFileSync(path.join(engineRoot, "index.ts"), "utf8");
    for (const name of [...routerNames, ...cachedRouters]) {
      expect(entryText, name).not.toMatch(new RegExp(`\\b${name}\\b`));
    }
    const wholesale = sources.filter((file) =>
      /export\s+\*\s+from\s+"\.\/(prism|caches)\//.test(readFileSync(file, "utf8")),
    );
    expect(wholesale.map(shown)).toEqual([]);
  });
});

describe("the built proxy", () => {
  /** The built files a built file loads, statically or when it runs, and theirs. */
  function loadedBy(entry: string): Set<string> {
    const seen = new Set<string>();
    const load = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const name of specifiers(readFileSync(path.join(dist, file), "utf8"))) {
        if (name.startsWith("./")) load(name.slice(2));
      }
    };
    load(entry);
    return seen;
  }

  it("does not load the sandbox's stores", () => {
    const proxyCli = readdirSync(dist).find((file) => /^proxy-cli-.*\.mjs$/.test(file));
    expect(proxyCli, "the build has a proxy CLI chunk").toBeDefined();
    const loaded = [...loadedBy(proxyCli as string)];
    const externals = loaded.flatMap((file) =>
      specifiers(readFileSync(path.join(dist, file), "utf8")).filter(
        (name) => !name.startsWith("."),
      ),
    );
    expect(loaded.some((file) => /^start-proxy-/.test(file))).toBe(true);
    expect(externals).not.toContain("node:sqlite");
    expect(externals).not.toContain("pg");
    expect(loaded.filter((file) => /store/.test(file))).toEqual([]);
  });
});
