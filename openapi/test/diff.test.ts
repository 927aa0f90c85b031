import { describe, expect, it } from "vitest";
import { diffSpecs } from "../diff.js";
import { loadSpec, type OpenApiDocument } from "../index.js";

type Schema = Record<string, unknown>;

/** A tiny spec with one operation per entry, in the shape the real spec uses. */
function spec(
  operations: Record<string, { parameters?: Schema[]; body?: Schema; response?: Schema }>,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of Object.entries(operations)) {
    const [method, path] = key.split(" ") as [string, string];
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = {
      operationId: `${method.toLowerCase()}${path.replaceAll(/\W/g, "")}`,
      parameters: op.parameters ?? [],
      ...(op.body && {
        requestBody: { required: true, content: { "application/json": { schema: op.body } } },
      }),
      responses: {
        "200": {
          description: "ok",
          content: { "application/json": { schema: op.response ?? {} } },
        },
        default: { description: "error" },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths,
    components: {},
  } as OpenApiDocument;
}

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: "object",
  properties,
  required,
});
const query = (name: string, schema: Schema, required = false) => ({
  name,
  in: "query",
  required,
  schema,
});

function messages(base: OpenApiDocument, head: OpenApiDocument) {
  const report = diffSpecs(base, head);
  return {
    breaking: report.breaking.map((c) => `${c.where}: ${c.message}`),
    additions: report.additions.map((c) => `${c.where}: ${c.message}`),
  };
}

describe("diffSpecs", () => {
  it("finds nothing between a spec and itself", () => {
    const real = loadSpec();
    expect(diffSpecs(real, loadSpec())).toEqual({ breaking: [], additions: [] });
  });

  it("breaks on a removed operation and adds a new one", () => {
    const result = messages(spec({ "GET /a": {} }), spec({ "GET /b": {} }));
    expect(result.breaking).toEqual(["GET /a: operation removed"]);
    expect(result.additions).toEqual(["GET /b: operation added"]);
  });

  it("breaks on a removed response field and adds a new one", () => {
    const base = spec({ "GET /a": { response: object({ id: { type: "string" } }) } });
    const head = spec({ "GET /a": { response: object({ name: { type: "string" } }) } });
    const result = messages(base, head);
    expect(result.breaking).toEqual(["GET /a response.id: field removed"]);
    expect(result.additions).toEqual(["GET /a response.name: field added"]);
  });

  it("breaks on a removed request field", () => {
    const base = spec({
      "POST /a": { body: object({ id: { type: "string" }, note: { type: "string" } }) },
    });
    const head = spec({ "POST /a": { body: object({ id: { type: "string" } }) } });
    expect(messages(base, head).breaking).toEqual(["POST /a request body.note: field removed"]);
  });

  it("breaks on a removed parameter", () => {
    const base = spec({ "GET /a": { parameters: [query("q", { type: "string" })] } });
    expect(messages(base, spec({ "GET /a": {} })).breaking).toEqual([
      "GET /a query parameter q: parameter removed",
    ]);
  });

  it("breaks on a removed enum value and adds a new one", () => {
    const base = spec({
      "GET /a": { parameters: [query("t", { type: "string", enum: ["A", "B"] })] },
    });
    const head = spec({
      "GET /a": { parameters: [query("t", { type: "string", enum: ["A", "C"] })] },
    });
    const result = messages(base, head);
    expect(result.breaking).toEqual(['GET /a query parameter t: enum value "B" removed']);
    expect(result.additions).toEqual(['GET /a query parameter t: enum value "C" added']);
  });

  it("breaks on a new required request field, not on a new optional one", () => {
    const base = spec({ "POST /a": { body: object({ id: { type: "string" } }, ["id"]) } });
    const head = spec({
      "POST /a": {
        body: object(
          { id: { type: "string" }, must: { type: "string" }, may: { type: "string" } },
          ["id", "must"],
        ),
      },
    });
    const result = messages(base, head);
    expect(result.breaking).toEqual(["POST /a request body.must: new required request field"]);
    expect(result.additions).toEqual(["POST /a request body.may: field added"]);
  });

  it("breaks when an existing request field becomes required", () => {
    const base = spec({ "POST /a": { body: object({ id: { type: "string" } }) } });
    const head = spec({ "POST /a": { body: object({ id: { type: "string" } }, ["id"]) } });
    expect(messages(base, head).breaking).toEqual([
      "POST /a request body.id: request field became required",
    ]);
  });

  it("breaks on a new required parameter, not on a new optional one", () => {
    const head = spec({
      "GET /a": {
        parameters: [query("must", { type: "string" }, true), query("may", { type: "string" })],
      },
    });
    const result = messages(spec({ "GET /a": {} }), head);
    expect(result.breaking).toEqual(["GET /a query parameter must: new required parameter"]);
    expect(result.additions).toEqual(["GET /a query parameter may: new optional parameter"]);
  });

  it("breaks when a parameter becomes required", () => {
    const base = spec({ "GET /a": { parameters: [query("q", { type: "string" })] } });
    const head = spec({ "GET /a": { parameters: [query("q", { type: "string" }, true)] } });
    expect(messages(base, head).breaking).toEqual([
      "GET /a query parameter q: parameter became required",
    ]);
  });

  it("breaks on a narrowed request type", () => {
    const base = spec({ "POST /a": { body: object({ v: { type: ["string", "null"] } }) } });
    const head = spec({ "POST /a": { body: object({ v: { type: "string" } }) } });
    expect(messages(base, head).breaking).toEqual([
      "POST /a request body.v: type string | null → string",
    ]);
  });

  it("breaks on a widened response type", () => {
    const base = spec({ "GET /a": { response: object({ v: { type: "string" } }, ["v"]) } });
    const head = spec({
      "GET /a": { response: object({ v: { type: ["string", "null"] } }, ["v"]) },
    });
    expect(messages(base, head).breaking).toEqual([
      "GET /a response.v: type string → string | null",
    ]);
  });

  it("breaks on a narrowed format", () => {
    const base = spec({ "GET /a": { parameters: [query("id", { type: "string" })] } });
    const head = spec({
      "GET /a": { parameters: [query("id", { type: "string", format: "uuid" })] },
    });
    expect(messages(base, head).breaking).toEqual([
      "GET /a query parameter id: format (none) → uuid",
    ]);
  });

  it("breaks on a narrowed limit and adds a widened one", () => {
    const base = spec({
      "GET /a": {
        parameters: [
          query("q", { type: "string", maxLength: 256 }),
          query("n", { type: "integer", maximum: 24 }),
        ],
      },
    });
    const head = spec({
      "GET /a": {
        parameters: [
          query("q", { type: "string", maxLength: 128 }),
          query("n", { type: "integer", maximum: 48 }),
        ],
      },
    });
    const result = messages(base, head);
    expect(result.breaking).toEqual(["GET /a query parameter q: maxLength narrowed 256 → 128"]);
    expect(result.additions).toEqual(["GET /a query parameter n: maximum widened 24 → 48"]);
  });

  it("breaks on a new limit or pattern", () => {
    const base = spec({
      "POST /a": { body: object({ m: { type: "string" }, n: { type: "integer" } }) },
    });
    const head = spec({
      "POST /a": {
        body: object({
          m: { type: "string", pattern: "^[a-z]+$" },
          n: { type: "integer", minimum: 1 },
        }),
      },
    });
    expect(messages(base, head).breaking).toEqual([
      "POST /a request body.m: pattern added: ^[a-z]+$",
      "POST /a request body.n: minimum narrowed (none) → 1",
    ]);
  });

  it("breaks when a response field becomes optional", () => {
    const base = spec({ "GET /a": { response: object({ id: { type: "string" } }, ["id"]) } });
    const head = spec({ "GET /a": { response: object({ id: { type: "string" } }) } });
    expect(messages(base, head).breaking).toEqual([
      "GET /a response.id: response field became optional",
    ]);
  });

  it("follows $refs and allOf into shared schemas, reporting each place they are used", () => {
    const real = loadSpec();
    const head = structuredClone(real);
    const topics = (head.components.schemas as Record<string, { enum: string[] }>).WebhookTopic;
    topics.enum = topics.enum.filter((topic) => topic !== "Ping");
    const { breaking } = messages(real, head);
    expect(breaking).toContain(
      'GET /webhooks response.items[].topics[]: enum value "Ping" removed',
    );
    expect(breaking).toContain(
      'PATCH /webhooks/{id} request body.topics[]: enum value "Ping" removed',
    );
    expect(breaking).toContain('PATCH /webhooks/{id} response.topics[]: enum value "Ping" removed');
  });

  it("reports a tightened limit of the real spec", () => {
    const real = loadSpec();
    const head = structuredClone(real);
    (
      head.components.parameters as Record<string, { schema: { maxLength: number } }>
    ).SearchTerm.schema.maxLength = 100;
    expect(messages(real, head).breaking).toEqual([
      "GET /customers query parameter search_term: maxLength narrowed 256 → 100",
      "GET /autoramp-transactions query parameter search_term: maxLength narrowed 256 → 100",
      "GET /addresses/fiat/{customer_id} query parameter search_term: maxLength narrowed 256 → 100",
    ]);
  });
});
