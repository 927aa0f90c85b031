// One document out of several: the test-mode document takes the API's enums and resources from
// partner-payments.yaml by `$ref`s such as `./partner-payments.yaml#/components/schemas/Customer`.
// A tool that reads one document (Prism's router, openapi-typescript, the guards, a partner's
// client generator reading GET /_sandbox/openapi.json) gets it with each such component copied
// into its own components under the same name, and every `$ref` local.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { OpenApiDocument } from "./document.ts";
import { parseYaml } from "./parse-once.ts";

const COMPONENT_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** The document at `file` with the components its `$ref`s name in other files copied into it. */
export function loadBundledSpec(file: string): OpenApiDocument {
  const others = new Map<string, OpenApiDocument>();
  return bundleDocument(parseYaml(readFileSync(file, "utf8")) as OpenApiDocument, (name) => {
    const resolved = path.resolve(path.dirname(file), name);
    let other = others.get(resolved);
    if (other === undefined) {
      other = parseYaml(readFileSync(resolved, "utf8")) as OpenApiDocument;
      others.set(resolved, other);
    }
    return other;
  });
}

/**
 * `doc`, parsed, with the components its `$ref`s name in other documents copied into it (it is
 * changed in place); `otherDoc` gives each other document by the name the `$ref`s use, and is
 * only read from.
 */
export function bundleDocument(
  doc: OpenApiDocument,
  otherDoc: (name: string) => OpenApiDocument,
): OpenApiDocument {
  doc.components ??= {};
  const copied = new Set<string>();

  /** Copies the component, and every component it names, from `from` into the document. */
  const copy = (from: OpenApiDocument, origin: string, kind: string, name: string) => {
    const key = `${origin}#${kind}/${name}`;
    if (copied.has(key)) return;
    copied.add(key);
    const node = from.components?.[kind]?.[name];
    if (node === undefined) throw new Error(`${origin} has no components.${kind}.${name}`);
    doc.components[kind] ??= {};
    const own = doc.components[kind];
    if (name in own && !isDeepStrictEqual(own[name], node)) {
      throw new Error(
        `components.${kind}.${name} of ${origin} cannot be bundled: the document has another of that name`,
      );
    }
    own[name] = structuredClone(node);
    visit(own[name], (ref) => {
      const local = COMPONENT_REF.exec(ref);
      if (local === null)
        throw new Error(`${origin}: only #/components/ $refs are bundled, got ${ref}`);
      copy(from, origin, local[1] as string, local[2] as string);
      return ref;
    });
  };

  visit(doc, (ref) => {
    if (ref.startsWith("#")) return ref;
    const [name = "", pointer = ""] = ref.split("#");
    const target = COMPONENT_REF.exec(`#${pointer}`);
    if (target === null) throw new Error(`only $refs to components are bundled, got ${ref}`);
    const [, kind = "", component = ""] = target;
    copy(otherDoc(name), name, kind, component);
    return `#/components/${kind}/${component}`;
  });
  return doc;
}

/** Calls `rewrite` on every `$ref` in the node and puts back what it answers. */
function visit(node: unknown, rewrite: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, rewrite);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === "$ref" && typeof value === "string") record[key] = rewrite(value);
    else visit(value, rewrite);
  }
}
