// The spec's types as openapi-typescript emits them…

// The webhook events, typed by topic (from the test-mode document's event schemas).
export type * from "./generated/events.js";
// …and friendly names for them: one alias per schema, per-operation body/parameter/response
// aliases, and a runtime array of every enum's values.
export * from "./generated/names.js";
export type { components, operations, paths } from "./generated/schema.js";
