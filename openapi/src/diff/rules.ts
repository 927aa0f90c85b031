// Every kind of change the guard knows, whether it breaks an existing integration, and how to make
// the change without breaking one. openapi/README.md explains the policy behind each verdict.
//
// The principle: a client sends requests and reads responses. A request side that accepts less
// (narrowed) breaks clients that send what it used to accept; a response side that can carry more
// (widened) breaks clients that read it, such as an exhaustive `switch` over an enum. The reverse
// changes are safe. Unknown object properties are the one exception: clients must ignore them.

const MAJOR = "or release it as a major version";

/**
 * What a change breaks: clients of the HTTP API (`wire`), code built on our packages' exported
 * TypeScript (`packages`), `both`, or `no`thing.
 */
export type Breaks = "wire" | "packages" | "both" | "no";

export type Rule = { breaking: boolean; breaks: Breaks; fix?: string };

const rule = (breaks: Breaks, fix?: string): Rule =>
  fix === undefined ? { breaking: breaks !== "no", breaks } : { breaking: true, breaks, fix };

/** Every rule: what it breaks, and how to make such a change safely. */
export const RULES: Record<string, Rule> = {
  // Operations
  "operation-removed": rule(
    "both",
    `mark it \`deprecated: true\` and remove it only in a major release`,
  ),
  "operation-added": rule("no"),
  "operation-id-changed": rule(
    "packages",
    `the client's method names come from operationId: keep the old one, ${MAJOR}`,
  ),
  "operation-deprecated": rule("no"),

  // Servers and security
  "server-removed": rule(
    "wire",
    "keep the old server listed beside the new one until a major release",
  ),
  "server-added": rule("no"),
  "security-narrowed": rule(
    "wire",
    `accept the old credentials too: add the new requirement as another alternative, ${MAJOR}`,
  ),
  "security-widened": rule("no"),

  // Parameters
  "parameter-removed": rule("both", `keep accepting it (mark it \`deprecated: true\`), ${MAJOR}`),
  "parameter-required-added": rule(
    "both",
    `make it optional, with the old behaviour when it is absent, ${MAJOR}`,
  ),
  "parameter-added": rule("no"),
  "parameter-became-required": rule(
    "both",
    `keep it optional, with the old behaviour when it is absent, ${MAJOR}`,
  ),
  "parameter-became-optional": rule("no"),
  "parameter-deprecated": rule("no"),
  "parameter-serialization-changed": rule(
    "wire",
    `keep its style, explode, allowReserved and content; add a new parameter for the new form, ${MAJOR}`,
  ),

  // Request bodies
  "request-body-removed": rule("both", `keep accepting the body, ${MAJOR}`),
  "request-body-required-added": rule("both", `make the body optional, ${MAJOR}`),
  "request-body-added": rule("no"),
  "request-body-became-optional": rule("no"),
  "request-media-type-removed": rule(
    "wire",
    `keep accepting the media type beside the new one, ${MAJOR}`,
  ),
  "request-media-type-added": rule("no"),

  // Responses
  "response-success-status-added": rule(
    "wire",
    `clients check for the statuses they know: keep answering with the old status, ${MAJOR}`,
  ),
  "response-success-removed": rule("both", `keep a success response, ${MAJOR}`),
  "response-status-removed": rule("no"),
  "response-error-status-added": rule("no"),
  "response-body-removed": rule("both", `keep sending the body, ${MAJOR}`),
  "response-body-added": rule("no"),
  "response-media-type-removed": rule(
    "wire",
    `keep offering the media type beside the new one, ${MAJOR}`,
  ),
  "response-media-type-added": rule("no"),
  "response-header-removed": rule("wire", `keep sending the header, ${MAJOR}`),
  "response-header-added": rule("no"),
  "response-header-became-optional": rule("wire", `keep sending it always, ${MAJOR}`),
  "response-header-became-required": rule("no"),

  // Schemas: types, values and constraints
  "request-type-narrowed": rule("both", `keep accepting the old types, ${MAJOR}`),
  "request-type-widened": rule("no"),
  "response-type-widened": rule("both", `send the new type in a new field, ${MAJOR}`),
  "response-type-narrowed": rule("no"),
  "type-changed": rule("both", `add a new field with the new type, ${MAJOR}`),
  "request-enum-narrowed": rule(
    "both",
    `keep accepting the values (document them as deprecated), ${MAJOR}`,
  ),
  "request-enum-widened": rule("no"),
  "response-enum-widened": rule(
    "both",
    `exhaustive switches over the values break: send the new value only to clients that opt in (a new field or parameter), ${MAJOR}`,
  ),
  "response-enum-narrowed": rule("no"),
  "request-format-narrowed": rule("wire", `keep the old format, ${MAJOR}`),
  "request-format-widened": rule("no"),
  "response-format-widened": rule(
    "wire",
    `clients parse and store values by format: send the wider format in a new field, ${MAJOR}`,
  ),
  "response-format-narrowed": rule("no"),
  "format-changed": rule("wire", `add a new field with the new format, ${MAJOR}`),
  "request-limit-narrowed": rule("wire", `keep the old limit, ${MAJOR}`),
  "request-limit-widened": rule("no"),
  "response-limit-widened": rule(
    "wire",
    `clients size buffers, columns and checks by the limits: keep them, ${MAJOR}`,
  ),
  "response-limit-narrowed": rule("no"),
  "request-pattern-narrowed": rule("wire", `keep the old pattern, ${MAJOR}`),
  "request-pattern-widened": rule("no"),
  "response-pattern-widened": rule(
    "wire",
    `clients validate values by the pattern: keep it, ${MAJOR}`,
  ),
  "response-pattern-narrowed": rule("no"),
  "pattern-changed": rule(
    "wire",
    `keep accepting what the old pattern accepted (write the new one as a superset), ${MAJOR}`,
  ),
  "pattern-rewritten": rule("no"),
  "request-default-changed": rule(
    "wire",
    `clients that leave the value out get another behaviour: keep the default, ${MAJOR}`,
  ),
  "request-discriminator-narrowed": rule(
    "both",
    `values that omit the property or carry an unmapped value are refused: keep the branches tagged as they were, ${MAJOR}`,
  ),
  "request-discriminator-widened": rule("no"),
  "response-discriminator-widened": rule(
    "both",
    `clients pick the branch by the discriminator: keep its property and values, ${MAJOR}`,
  ),
  "response-discriminator-narrowed": rule("no"),
  "discriminator-changed": rule("both", `keep the discriminator property, ${MAJOR}`),

  // Schemas: unions
  "request-union-narrowed": rule("both", `keep accepting the branch, ${MAJOR}`),
  "request-union-widened": rule("no"),
  "response-union-widened": rule(
    "both",
    `clients handle the branches they know: send the new shape only to clients that opt in, ${MAJOR}`,
  ),
  "response-union-narrowed": rule("no"),

  // Schemas: object properties
  "request-property-removed": rule(
    "both",
    `keep accepting the property (mark it \`deprecated: true\`), ${MAJOR}`,
  ),
  "request-property-required-added": rule(
    "both",
    `make the property optional, with the old behaviour when it is absent, ${MAJOR}`,
  ),
  "request-property-added": rule("no"),
  "request-property-became-required": rule(
    "both",
    `keep it optional, with the old behaviour when it is absent, ${MAJOR}`,
  ),
  "request-property-became-optional": rule("no"),
  "request-property-read-only": rule("wire", `keep accepting the property in requests, ${MAJOR}`),
  "request-additional-properties-narrowed": rule(
    "wire",
    `keep accepting properties the schema does not name, ${MAJOR}`,
  ),
  "request-additional-properties-widened": rule("no"),
  "response-property-removed": rule(
    "both",
    `keep sending the property (mark it \`deprecated: true\`), ${MAJOR}`,
  ),
  "response-property-added": rule("no"),
  "response-property-became-optional": rule("both", `keep sending it always, ${MAJOR}`),
  "response-property-became-required": rule("no"),
  "response-property-write-only": rule("wire", `keep returning the property, ${MAJOR}`),
  "response-additional-properties-changed": rule("no"),
  "property-deprecated": rule("no"),

  // The packages' TypeScript (the surface guard): names partners import, methods they call.
  "package-generation-failed": rule(
    "packages",
    "the packages cannot be generated from this spec: fix the spec (the generators' error says how)",
  ),
  "package-export-removed": rule(
    "packages",
    `keep the old name exported: keep the component schema's name (a component under the old name that \`$ref\`s the new one keeps the old type and enum array) and the operationId, deprecate the old name first, ${MAJOR}`,
  ),
  "package-export-added": rule("no"),
  "package-path-removed": rule(
    "packages",
    `the client's path-style calls name the path template: keep its parameter names, ${MAJOR}`,
  ),
  "package-path-added": rule("no"),
  "package-resource-removed": rule(
    "packages",
    `facade resources come from tags: keep the tag (add the new one beside it and deprecate the old operations first), ${MAJOR}`,
  ),
  "package-resource-added": rule("no"),
  "package-method-removed": rule(
    "packages",
    `facade methods come from operationIds and tags: keep the operationId and tag, add the new operation beside the old one and deprecate the old one first, ${MAJOR}`,
  ),
  "package-method-added": rule("no"),
  "package-method-arguments-narrowed": rule(
    "packages",
    `calls that compiled no longer do: keep every parameter and body property optional that was, ${MAJOR}`,
  ),
  "package-method-result-widened": rule(
    "packages",
    `code that handles the result meets values its type did not allow: keep the response type, ${MAJOR}`,
  ),
  "package-enum-array-changed": rule(
    "packages",
    `the exported array is a readonly tuple of the values in spec order, and code typed by it no longer compiles: keep the values and their order (a new value in a new schema), ${MAJOR}`,
  ),
  "package-request-type-narrowed": rule(
    "packages",
    `values partners build with this type no longer type-check: keep accepting them, ${MAJOR}`,
  ),
  "package-request-type-widened": rule("no"),
  "package-response-type-widened": rule(
    "packages",
    `code that reads this type meets values it did not allow: keep the type, ${MAJOR}`,
  ),
  "package-response-type-narrowed": rule("no"),
  "package-type-changed": rule(
    "packages",
    `this type is sent and received (or its use is unknown), so it must admit exactly the values it did: add a new schema instead, ${MAJOR}`,
  ),
};
