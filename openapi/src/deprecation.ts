// What a deprecated operation, parameter or property says about going away, by the document's
// conventions: `deprecated: true`, the `x-sunset` date it goes away on (a full date, as RFC 8594's
// Sunset header carries it) and `x-replacement`, what to use instead (Markdown). The generators
// put it in the `@deprecated` tags and tool descriptions; the mock and the sandbox in their headers.

/** A deprecated node's sunset date and replacement, each when the document gives one. */
export interface Deprecation {
  sunset?: string;
  replacement?: string;
}

/** The deprecation of an operation, parameter or schema, or undefined when it is not deprecated. */
export function deprecationOf(node: unknown): Deprecation | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  const fields = node as Record<string, unknown>;
  if (fields.deprecated !== true) return undefined;
  const { "x-sunset": sunset, "x-replacement": replacement } = fields;
  return {
    ...(typeof sunset === "string" && { sunset }),
    ...(typeof replacement === "string" && { replacement: replacement.trim() }),
  };
}

/** The deprecation in words: "Sunset 2027-06-30. Use `deposit_rails` instead." ("" when none is given). */
export function deprecationNotice({ sunset, replacement }: Deprecation): string {
  return [
    sunset === undefined ? "" : `Sunset ${sunset}.`,
    replacement === undefined ? "" : `Use ${replacement} instead.`,
  ]
    .filter(Boolean)
    .join(" ");
}
