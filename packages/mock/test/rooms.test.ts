// The rooms and which may use which (see the root README's "Layout"): http at the bottom, the
// engine on it (both in packages/engine), the sandbox (packages/sandbox) and the proxy on both and
// never on each other, the mock's entry points on top. Read from the sources' imports, so a new
// import that breaks the house fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../../", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** Each workspace package of the mock, by the name other packages import it with. */
const PACKAGES = {
  "@org/payments-engine": path.join(packages, "engine/src"),
  "@org/payments-sandbox": path.join(packages, "sandbox/src"),
  "@org/payments-mock": path.join(packages, "mock/src"),
} as const;

type Room = "http" | "engine" | "sandbox" | "proxy" | "entry";
/** The rooms each room may import from, besides itself. */
const MAY_USE: Record<Room, readonly Room[]> = {
  http: [],
  engine: ["http"],
  sandbox: ["engine", "http"],
  proxy: ["engine", "http"],
  entry: ["sandbox", "proxy", "engine", "http"],
};

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|\brequire(?:\.resolve)?\(\s*[`"]([^`"]+)[`"]/g;

/** Every module a source or built file names: imports, exports from, dynamic imports, requires. */
function specifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => match[1] ?? match[2] ?? match[3] ?? "");
}

const sources = Object.values(PACKAGES).flatMap((src) =>
  readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.join(src, file)),
);

/** A file's name inside the packages' folder, for messages. */
const shown = (file: string) => path.relative(packages, file);

function roomOf(file: string): Room {
  if (file.startsWith(PACKAGES["@org/payments-sandbox"] + path.sep)) return "sandbox";
  const src = file.startsWith(PACKAGES["@org/payments-engine"] + path.sep)
    ? PACKAGES["@org/payments-engine"]
    : PACKAGES["@org/payments-mock"];
  const [first, ...rest] = path.relative(src, file).split(path.sep);
  return rest.length === 0 ? "entry" : (first as Room);
}

/** The source files a file imports, resolved (`./x.js` is `./x.ts`, a package's `x.js` its `src/x.ts`). */
function localImports(file: string): string[] {
  return specifiers(readFileSync(file, "utf8")).flatMap((name) => {
    if (name.startsWith(".")) {
      return [path.resolve(path.dirname(file), name.replace(/\.js$/, ".ts"))];
    }
    const [scope = "", pkg = "", ...rest] = name.split("/");
    const src = PACKAGES[`${scope}/${pkg}` as keyof typeof PACKAGES];
    return src ? [path.join(src, ...rest).replace(/\.js$/, ".ts")] : [];
  });
}

describe("the rooms of the engine, the sandbox and the mock", () => {
  it("are the ones the house names", () => {
    expect(new Set(sources.map(roomOf))).toEqual(
      new Set(["http", "engine", "sandbox", "proxy", "entry"]),
    );
  });

  it("use only the rooms below them", () => {
    const wrong = sources.flatMap((file) =>
      localImports(file)
        .filter((target) => {
          const [from, to] = [roomOf(file), roomOf(target)];
          return from !== to && !MAY_USE[from].includes(to);
        })
        .map((target) => `${shown(file)} → ${shown(target)}`),
    );
    expect(wrong).toEqual([]);
  });

  it("import each other in no circle", () => {
    const graph = new Map(sources.map((file) => [file, localImports(file)]));
    const done = new Set<string>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file)) {
        circles.push([...trail.slice(trail.indexOf(file)), file].map(shown).join(" → "));
        return;
      }
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of sources) visit(file, []);
    expect(circles).toEqual([]);
  });

  it("reach into Prism from one adapter only", () => {
    const importers = sources
      .filter((file) =>
        specifiers(readFileSync(file, "utf8")).some((name) => name.startsWith("@stoplight/")),
      )
      .map(shown);
    expect(importers).toEqual([path.join("engine", "src", "engine", "prism-adapter.ts")]);
  });

  it("keep the sandbox's store to rows and records: no HTTP module, no answer", () => {
    const sandbox = PACKAGES["@org/payments-sandbox"];
    const store = path.join(sandbox, "store") + path.sep;
    const answering = [
      path.join(PACKAGES["@org/payments-engine"], "http") + path.sep,
      path.join(sandbox, "api") + path.sep,
      path.join(sandbox, "control") + path.sep,
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
    const sandbox = PACKAGES["@org/payments-sandbox"];
    const folderOf = (file: string) => {
      const parts = path.relative(sandbox, file).split(path.sep);
      return parts.length === 1 ? "sandbox.ts and settings" : (parts[0] as string);
    };
    const edges = new Map<string, Set<string>>();
    for (const file of sources.filter((f) => f.startsWith(sandbox + path.sep))) {
      for (const target of localImports(file).filter((t) => t.startsWith(sandbox + path.sep))) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (folder: string, trail: string[]) => {
      if (trail.includes(folder)) {
        circles.push([...trail.slice(trail.indexOf(folder)), folder].join(" → "));
        return;
      }
      if (done.has(folder)) return;
      for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
      done.add(folder);
    };
    for (const folder of edges.keys()) visit(folder, []);
    expect(edges.size, "the sandbox has concern folders").toBeGreaterThan(4);
    expect(circles).toEqual([]);
  });

  it("route a request once, with Prism's router", () => {
    const matchers = sources.filter((file) =>
      /\b(operationFor|pathParameterAt|pathParams)\b/.test(readFileSync(file, "utf8")),
    );
    expect(matchers).toEqual([]);
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
