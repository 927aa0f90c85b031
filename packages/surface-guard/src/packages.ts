// What a spec change does to the TypeScript our packages publish. Partners import
// `@org/payments-types` and call `@org/payments-client`: their exported names come from the
// component schemas, the facade's methods from the tags and operationIds, the enum arrays from the
// enums. Both packages' generators run in memory on each spec, with the packages' hand-written
// sources beside what they generate, and surface.ts compares the two versions' exports.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { listOperations, type OpenApiDocument, resolveRef } from "@org/payments-spec";
import type { SpecDiff } from "@org/payments-spec/diff";
import { diffSurfaces } from "./diff-surfaces.ts";
import type { ExportRole, SurfaceVersion } from "./surface.ts";

export const TYPES_PACKAGE = "@org/payments-types";
export const CLIENT_PACKAGE = "@org/payments-client";
type GuardedPackage = typeof TYPES_PACKAGE | typeof CLIENT_PACKAGE;

/**
 * A package's folder, found through this package's dependency on it. The generators are not
 * published (their `files` hold only `dist`), so no export names them: the guard reads them, and
 * the hand-written sources, from the workspace package itself.
 */
function packageDir(pkg: GuardedPackage): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
}

type TypesGenerator = {
  generateSchema(source: unknown): Promise<string>;
  generateNames(doc: unknown): string;
};
type ClientGenerator = { render(doc: unknown): Record<string, string> };

/** Every change from `base` to `head` in what the packages export, breaking ones apart. */
export function diffPackages(base: OpenApiDocument, head: OpenApiDocument): Promise<SpecDiff> {
  return diffSurfaces(base, head, {
    owner: "packages",
    surfaceOf,
    rolesOf: (doc) => {
      const typesRole = typesRoles(doc);
      return (pkg, name) => (pkg === TYPES_PACKAGE ? typesRole(name) : clientRole(name));
    },
  });
}

/** A spec's packages as the compiler would see them: hand-written sources and generated files. */
async function surfaceOf(doc: OpenApiDocument, version: string): Promise<SurfaceVersion> {
  const types: TypesGenerator = await import(generatorUrl(TYPES_PACKAGE));
  const client: ClientGenerator = await import(generatorUrl(CLIENT_PACKAGE));
  // openapi-typescript resolves `$ref`s in the document it is given: it gets a copy.
  const typesGenerated = {
    "schema.ts": await types.generateSchema(structuredClone(doc)),
    "names.ts": types.generateNames(doc),
  };
  const files = new Map<string, string>();
  const entries: Record<string, string> = {};
  for (const [pkg, generated] of [
    [TYPES_PACKAGE, typesGenerated],
    [CLIENT_PACKAGE, client.render(doc)],
  ] as const) {
    const source = path.join(packageDir(pkg), "src");
    // Beside the real sources, so that their dependencies resolve from the package's node_modules.
    const virtual = path.join(source, `.spec-diff-${version}`);
    for (const file of readdirSync(source).filter((name) => name.endsWith(".ts"))) {
      files.set(path.join(virtual, file), readFileSync(path.join(source, file), "utf8"));
    }
    for (const [file, content] of Object.entries(generated)) {
      files.set(path.join(virtual, "generated", file), content);
    }
    entries[pkg] = path.join(virtual, "index.ts");
  }
  return { files, entries };
}

/** The module of a package's generator: `scripts/generate.ts`, which its `generate` task runs. */
function generatorUrl(pkg: GuardedPackage): string {
  return pathToFileURL(path.join(packageDir(pkg), "scripts/generate.ts")).href;
}

const REQUEST_SUFFIXES = /(Body|Query|PathParams|Headers|Cookies)$/;

/**
 * How each export of the types package is judged: a component schema by the side of the exchange
 * it is used on in the released spec (on both, or on none, it must keep its values exactly), an
 * operation's alias by its suffix, `paths` by its keys (the client's path-style calls name them).
 */
function typesRoles(doc: OpenApiDocument): (name: string) => ExportRole {
  const sides = schemaSides(doc);
  const roles = new Map<string, ExportRole>([
    ["paths", "keys"],
    ["components", "presence"],
    ["operations", "presence"],
  ]);
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    const used = [...(sides.get(name) ?? [])];
    roles.set(name, used.length === 1 && used[0] ? used[0] : "both");
  }
  return (name) =>
    roles.get(name) ??
    (REQUEST_SUFFIXES.test(name) ? "request" : name.endsWith("Response") ? "response" : "both");
}

/**
 * How each export of the client is judged: the facade by its resources and methods; `ClientPaths`
 * only by its presence, since it is the types package's `paths` with two headers made optional and
 * every change to it is already reported there.
 */
function clientRole(name: string): ExportRole {
  if (name === "PaymentsResources") return "facade";
  return name === "ClientPaths" ? "presence" : "both";
}

/** The sides (request, response) each component schema is reached from, through every `$ref`. */
function schemaSides(doc: OpenApiDocument): Map<string, Set<"request" | "response">> {
  const sides = new Map<string, Set<"request" | "response">>();
  const walk = (node: unknown, side: "request" | "response", seen: Set<string>) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, side, seen);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && !seen.has(ref)) {
      seen.add(ref);
      const schema = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      if (schema !== undefined) {
        const name = decodeURIComponent(schema.replaceAll("~1", "/").replaceAll("~0", "~"));
        sides.set(name, (sides.get(name) ?? new Set()).add(side));
      }
      walk(resolveRef(doc, ref), side, seen);
    }
    for (const value of Object.values(node)) walk(value, side, seen);
  };
  for (const { operation, parameters } of listOperations(doc)) {
    walk(parameters, "request", new Set());
    walk(operation.requestBody, "request", new Set());
    walk(operation.responses, "response", new Set());
  }
  return sides;
}
