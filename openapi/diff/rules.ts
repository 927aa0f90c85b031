// Every kind of change the guard knows, whether it breaks an existing integration, and how to make
// the change without breaking one. openapi/README.md explains the policy behind each verdict.
//
// The principle: a client sends requests and reads responses. A request side that accepts less
// (narrowed) breaks clients that send what it used to accept; a response side that can carry more
// (widened) breaks clients that read it, such as an exhaustive `switch` over an enum. The reverse
// changes are safe. Unknown object properties are the one exception: clients must ignore them.

const MAJOR = "or release it as a major version";

export type Rule = { breaking: boolean; fix?: string };

/** Every rule: whether it breaks clients, and how to make such a change safely. */
export const RULES: Record<string, Rule> = {
  // Operations
  "operation-removed": {
    breaking: true,
    fix: `mark it \`deprecated: true\` and remove it only in a major release`,
  },
  "operation-added": { breaking: false },
  "operation-id-changed": {
    breaking: true,
    fix: `the client's method names come from operationId: keep the old one, ${MAJOR}`,
  },
  "operation-deprecated": { breaking: false },

  // Servers and security
  "server-removed": {
    breaking: true,
    fix: "keep the old server listed beside the new one until a major release",
  },
  "server-added": { breaking: false },
  "security-narrowed": {
    breaking: true,
    fix: `accept the old credentials too: add the new requirement as another alternative, ${MAJOR}`,
  },
  "security-widened": { breaking: false },

  // Parameters
  "parameter-removed": {
    breaking: true,
    fix: `keep accepting it (mark it \`deprecated: true\`), ${MAJOR}`,
  },
  "parameter-required-added": {
    breaking: true,
    fix: `make it optional, with the old behaviour when it is absent, ${MAJOR}`,
  },
  "parameter-added": { breaking: false },
  "parameter-became-required": {
    breaking: true,
    fix: `keep it optional, with the old behaviour when it is absent, ${MAJOR}`,
  },
  "parameter-became-optional": { breaking: false },
  "parameter-serialization-changed": {
    breaking: true,
    fix: `keep its style, explode, allowReserved and content; add a new parameter for the new form, ${MAJOR}`,
  },

  // Request bodies
  "request-body-removed": { breaking: true, fix: `keep accepting the body, ${MAJOR}` },
  "request-body-required-added": {
    breaking: true,
    fix: `make the body optional, ${MAJOR}`,
  },
  "request-body-added": { breaking: false },
  "request-body-became-optional": { breaking: false },
  "request-media-type-removed": {
    breaking: true,
    fix: `keep accepting the media type beside the new one, ${MAJOR}`,
  },
  "request-media-type-added": { breaking: false },

  // Responses
  "response-success-status-added": {
    breaking: true,
    fix: `clients check for the statuses they know: keep answering with the old status, ${MAJOR}`,
  },
  "response-success-removed": {
    breaking: true,
    fix: `keep a success response, ${MAJOR}`,
  },
  "response-status-removed": { breaking: false },
  "response-error-status-added": { breaking: false },
  "response-body-removed": {
    breaking: true,
    fix: `keep sending the body, ${MAJOR}`,
  },
  "response-body-added": { breaking: false },
  "response-media-type-removed": {
    breaking: true,
    fix: `keep offering the media type beside the new one, ${MAJOR}`,
  },
  "response-media-type-added": { breaking: false },
  "response-header-removed": { breaking: true, fix: `keep sending the header, ${MAJOR}` },
  "response-header-added": { breaking: false },
  "response-header-became-optional": {
    breaking: true,
    fix: `keep sending it always, ${MAJOR}`,
  },
  "response-header-became-required": { breaking: false },

  // Schemas: types, values and constraints
  "request-type-narrowed": {
    breaking: true,
    fix: `keep accepting the old types, ${MAJOR}`,
  },
  "request-type-widened": { breaking: false },
  "response-type-widened": {
    breaking: true,
    fix: `send the new type in a new field, ${MAJOR}`,
  },
  "response-type-narrowed": { breaking: false },
  "type-changed": { breaking: true, fix: `add a new field with the new type, ${MAJOR}` },
  "request-enum-narrowed": {
    breaking: true,
    fix: `keep accepting the values (document them as deprecated), ${MAJOR}`,
  },
  "request-enum-widened": { breaking: false },
  "response-enum-widened": {
    breaking: true,
    fix: `exhaustive switches over the values break: send the new value only to clients that opt in (a new field or parameter), ${MAJOR}`,
  },
  "response-enum-narrowed": { breaking: false },
  "request-format-narrowed": { breaking: true, fix: `keep the old format, ${MAJOR}` },
  "request-format-widened": { breaking: false },
  "response-format-widened": {
    breaking: true,
    fix: `clients parse and store values by format: send the wider format in a new field, ${MAJOR}`,
  },
  "response-format-narrowed": { breaking: false },
  "format-changed": { breaking: true, fix: `add a new field with the new format, ${MAJOR}` },
  "request-limit-narrowed": {
    breaking: true,
    fix: `keep the old limit, ${MAJOR}`,
  },
  "request-limit-widened": { breaking: false },
  "response-limit-widened": {
    breaking: true,
    fix: `clients size buffers, columns and checks by the limits: keep them, ${MAJOR}`,
  },
  "response-limit-narrowed": { breaking: false },
  "request-pattern-narrowed": { breaking: true, fix: `keep the old pattern, ${MAJOR}` },
  "request-pattern-widened": { breaking: false },
  "response-pattern-widened": {
    breaking: true,
    fix: `clients validate values by the pattern: keep it, ${MAJOR}`,
  },
  "response-pattern-narrowed": { breaking: false },
  "pattern-changed": {
    breaking: true,
    fix: `keep accepting what the old pattern accepted (write the new one as a superset), ${MAJOR}`,
  },
  "pattern-rewritten": { breaking: false },
  "request-default-changed": {
    breaking: true,
    fix: `clients that leave the value out get another behaviour: keep the default, ${MAJOR}`,
  },
  "discriminator-changed": {
    breaking: true,
    fix: `keep the discriminator property, ${MAJOR}`,
  },

  // Schemas: unions
  "request-union-narrowed": {
    breaking: true,
    fix: `keep accepting the branch, ${MAJOR}`,
  },
  "request-union-widened": { breaking: false },
  "response-union-widened": {
    breaking: true,
    fix: `clients handle the branches they know: send the new shape only to clients that opt in, ${MAJOR}`,
  },
  "response-union-narrowed": { breaking: false },

  // Schemas: object properties
  "request-property-removed": {
    breaking: true,
    fix: `keep accepting the property (mark it \`deprecated: true\`), ${MAJOR}`,
  },
  "request-property-required-added": {
    breaking: true,
    fix: `make the property optional, with the old behaviour when it is absent, ${MAJOR}`,
  },
  "request-property-added": { breaking: false },
  "request-property-became-required": {
    breaking: true,
    fix: `keep it optional, with the old behaviour when it is absent, ${MAJOR}`,
  },
  "request-property-became-optional": { breaking: false },
  "request-property-read-only": {
    breaking: true,
    fix: `keep accepting the property in requests, ${MAJOR}`,
  },
  "request-additional-properties-narrowed": {
    breaking: true,
    fix: `keep accepting properties the schema does not name, ${MAJOR}`,
  },
  "request-additional-properties-widened": { breaking: false },
  "response-property-removed": {
    breaking: true,
    fix: `keep sending the property (mark it \`deprecated: true\`), ${MAJOR}`,
  },
  "response-property-added": { breaking: false },
  "response-property-became-optional": {
    breaking: true,
    fix: `keep sending it always, ${MAJOR}`,
  },
  "response-property-became-required": { breaking: false },
  "response-property-write-only": {
    breaking: true,
    fix: `keep returning the property, ${MAJOR}`,
  },
  "response-additional-properties-changed": { breaking: false },
};
