// Turns an OpenAPI 3.1 schema into a self-contained JSON Schema: its `$ref`s to
// `#/components/schemas/…` either inlined (input schemas, which a model reads) or gathered under
// `$defs` (output schemas, which repeat shared shapes such as Amount many times).
import { type OpenApiDocument, resolveRef } from "@org/payments-spec";
import type { JsonSchema } from "../src/tool-definition.ts";
import { mapSubschemas } from "./subschemas.ts";

/** OpenAPI keywords that are not JSON Schema: dropped. */
const OPENAPI_ONLY = new Set(["discriminator", "xml", "externalDocs", "example"]);

const COMPONENT = "#/components/schemas/";

export class SchemaConverter {
  readonly #doc: OpenApiDocument;
  readonly #inline: boolean;
  /** `$defs` gathered so far, by component name (in defs mode). */
  readonly defs = new Map<string, JsonSchema>();

  constructor(doc: OpenApiDocument, mode: "inline" | "defs") {
    this.#doc = doc;
    this.#inline = mode === "inline";
  }

  convert(node: unknown, seen: readonly string[] = []): JsonSchema {
    if (typeof node === "boolean") return node ? {} : { not: {} };
    if (node === null || typeof node !== "object") return {};
    const { $ref, ...rest } = node as JsonSchema;
    const siblings = this.#walk(rest, seen);
    if (typeof $ref !== "string") return siblings;
    const name = $ref.startsWith(COMPONENT) ? $ref.slice(COMPONENT.length) : undefined;
    if (name === undefined || this.#inline) {
      const key = name ?? $ref;
      if (seen.includes(key)) throw new Error(`${key} is recursive: it cannot be inlined`);
      // Siblings of a $ref (a description, a default, `deprecated`) refine what it points to.
      return { ...this.convert(resolveRef(this.#doc, $ref), [...seen, key]), ...siblings };
    }
    if (!this.defs.has(name)) {
      this.defs.set(name, {});
      this.defs.set(name, this.convert(resolveRef(this.#doc, $ref)));
    }
    return { $ref: `#/$defs/${name}`, ...siblings };
  }

  /** The `$defs` an output schema needs, in name order so the generated file is stable. */
  takeDefs(): JsonSchema | undefined {
    if (this.defs.size === 0) return undefined;
    const sorted = [...this.defs.entries()].sort(([a], [b]) => a.localeCompare(b));
    this.defs.clear();
    return Object.fromEntries(sorted);
  }

  #walk(schema: JsonSchema, seen: readonly string[]): JsonSchema {
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (OPENAPI_ONLY.has(keyword)) continue;
      out[keyword] = mapSubschemas(keyword, value, (sub) => this.convert(sub, seen));
    }
    return out;
  }
}
