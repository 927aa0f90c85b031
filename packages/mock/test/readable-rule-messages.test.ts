// Every schema rule the spec uses, broken on purpose in a request (to the mock, the sandbox and
// the proxy) and in a response (to the proxy), must come back in words a person reads: no raw
// regular expression, no bare type name, none of JSON Schema's own wording.
import { deref, loadSpec, type OperationEntry, specPath } from "@org/payments-spec";
import { operations, type SpecRequest, send, validRequest } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Problem,
  type RunningMock,
  type RunningProxy,
  startMock,
  startProxy,
  type Violation,
} from "../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "./support/fake-upstream.js";

const spec = loadSpec();

/** The JSON Schema keywords that validate (the ones a request or response can break). */
const VALIDATION_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "maxLength",
  "minLength",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "additionalProperties",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
]);

/** Words that show a message was not written for a person. */
const UNREADABLE: Array<[string, RegExp]> = [
  // Anchors, classes, quantifiers and groups (a quoted value's \n is no regular expression).
  ["a raw regular expression", /\^|\[\^|\{\d+,\d*\}|\\[dDwWsS]|\(\?|\)[?*+{]/],
  ["a bare type name", /\b(must be|got|not) (string|number|integer|boolean|object|array)\b/],
  ["JSON Schema's comparison signs", /<=|>=|must be [<>]/],
  ["Ajv's wording", /must NOT|allowed values|schema in anyOf|must match (format|pattern)|equal to/],
  [
    "Prism's wording",
    /exampleKey|contentType:|Request (query|header|path) parameter|Body parameter is required/,
  ],
];

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Each schema the spec gives a parameter, a request body or a response body. */
function schemaRoots(): unknown[] {
  const roots: unknown[] = Object.values(spec.components.schemas ?? {});
  for (const entry of operations) {
    for (const parameter of entry.parameters) roots.push(parameter.schema);
    const body = deref(spec, entry.operation.requestBody);
    for (const content of Object.values(body?.content ?? {})) roots.push((content as Json).schema);
    for (const response of Object.values(entry.operation.responses ?? {})) {
      for (const content of Object.values(deref(spec, response)?.content ?? {})) {
        roots.push((content as Json).schema);
      }
    }
  }
  return roots;
}

/** The validating keywords the spec's schemas use. */
function keywordsInSpec(): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    const schema = deref(spec, node);
    if (!isJson(schema) || seen.has(schema)) return;
    seen.add(schema);
    for (const [key, value] of Object.entries(schema)) {
      if (VALIDATION_KEYWORDS.has(key) && !(key === "required" && !Array.isArray(value))) {
        found.add(key);
      }
    }
    for (const sub of Object.values(isJson(schema.properties) ? schema.properties : {})) walk(sub);
    for (const key of ["items", "not", "additionalProperties"]) walk(schema[key]);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      for (const sub of (schema[key] as unknown[] | undefined) ?? []) walk(sub);
    }
  };
  for (const root of schemaRoots()) walk(root);
  return found;
}

const DROP = Symbol("drop the field");
type Path = Array<string | number>;

/** One rule of one schema, and a value that breaks it. */
interface Break {
  keyword: string;
  /** The rule and its parameter, to try each distinct one once per location. */
  rule: string;
  path: Path;
  value: unknown;
}

const WRONG_TYPE: Record<string, unknown> = {
  string: 12345,
  integer: "abc",
  number: "abc",
  boolean: "yes",
  object: "x",
  array: "x",
};

const BAD_FORMAT: Record<string, unknown> = {
  uuid: "not-a-uuid",
  "date-time": "yesterday",
  date: "yesterday",
  email: "nobody",
  uri: "not a uri",
  int32: 2 ** 40,
  int64: 2 ** 70,
  uint32: -1,
  uint64: -1,
};

/** Fails both of the spec's patterns: not a decimal number, and six lines. */
const BREAKS_PATTERNS = "x\n\n\n\n\nx";

/** The rules of `node` and of the schemas under it, each with a value at `path` that breaks it. */
function* breaks(node: unknown, value: unknown, path: Path, depth = 0): Generator<Break> {
  const schema = deref(spec, node);
  if (!isJson(schema) || depth > 6) return;
  const rule = (keyword: string, parameter: unknown = schema[keyword]) =>
    `${keyword}:${JSON.stringify(parameter)}`;
  const type = schema.type;
  if (typeof type === "string" && type in WRONG_TYPE) {
    yield { keyword: "type", rule: rule("type"), path, value: WRONG_TYPE[type] };
  }
  if (Array.isArray(schema.enum)) {
    yield { keyword: "enum", rule: rule("enum"), path, value: "NotOneOfThem" };
  }
  if (typeof schema.format === "string" && schema.format in BAD_FORMAT) {
    yield { keyword: "format", rule: rule("format"), path, value: BAD_FORMAT[schema.format] };
  }
  if (typeof schema.pattern === "string") {
    yield { keyword: "pattern", rule: rule("pattern"), path, value: BREAKS_PATTERNS };
  }
  if (typeof schema.maxLength === "number") {
    const value = "x".repeat(schema.maxLength + 1);
    yield { keyword: "maxLength", rule: rule("maxLength"), path, value };
  }
  if (typeof schema.maximum === "number") {
    yield { keyword: "maximum", rule: rule("maximum"), path, value: schema.maximum + 1 };
  }
  if (typeof schema.minimum === "number") {
    yield { keyword: "minimum", rule: rule("minimum"), path, value: schema.minimum - 1 };
  }
  if (Array.isArray(schema.anyOf)) {
    // A value of a type no alternative has.
    const types = schema.anyOf.map((sub) => deref(spec, sub)?.type);
    const value = ["x", 5, true].find((candidate) => !types.includes(typeof candidate));
    yield { keyword: "anyOf", rule: rule("anyOf", types), path, value };
  }
  for (const sub of (schema.allOf as unknown[] | undefined) ?? []) {
    yield* breaks(sub, value, path, depth + 1);
  }
  if (isJson(schema.properties)) {
    for (const name of (schema.required as string[] | undefined) ?? []) {
      if (isJson(value) && name in value) {
        yield { keyword: "required", rule: "required", path: [...path, name], value: DROP };
      }
    }
    for (const [name, sub] of Object.entries(schema.properties)) {
      const inner = isJson(value) ? value[name] : undefined;
      yield* breaks(sub, inner, [...path, name], depth + 1);
    }
  }
  if (schema.items !== undefined) {
    const first = Array.isArray(value) ? value[0] : undefined;
    yield* breaks(schema.items, first, [...path, 0], depth + 1);
  }
}

/** `root` with the value at `path` replaced (or dropped), creating what is missing on the way. */
function broken(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: unknown = structuredClone(root ?? (typeof path[0] === "number" ? [] : {}));
  let parent = copy as Record<string | number, unknown>;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const next = path[i + 1];
    if (typeof parent[key] !== "object" || parent[key] === null) {
      parent[key] = typeof next === "number" ? [] : {};
    }
    parent = parent[key] as Record<string | number, unknown>;
  }
  const last = path.at(-1) as string | number;
  if (value === DROP) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** Each distinct rule broken once per location, as requests of the operations that have it. */
function brokenRequests(): Array<{ keyword: string; request: SpecRequest }> {
  const tried = new Set<string>();
  const found: Array<{ keyword: string; request: SpecRequest }> = [];
  const add = (where: string, item: Break, make: () => SpecRequest | undefined) => {
    const key = `${where}:${item.rule}`;
    if (tried.has(key)) return;
    const request = make();
    if (request === undefined) return;
    tried.add(key);
    found.push({ keyword: item.keyword, request });
  };
  for (const entry of operations) {
    const valid = validRequest(entry.operationId);
    for (const parameter of entry.parameters) {
      const place = parameter.in;
      if (place === "cookie") continue;
      const dropped: Break = { keyword: "required", rule: "required", path: [], value: DROP };
      const own = parameter.required && place !== "path" ? [dropped] : [];
      for (const item of [...own, ...breaks(parameter.schema, undefined, [])]) {
        // A query or header value is text: a string-typed one cannot have the wrong type.
        if (item.keyword === "type" && typeof item.value !== "string") continue;
        if (item.path.length > 1) continue;
        add(place, item, () => withParameter(valid, entry, parameter.name, place, item.value));
      }
    }
    if (valid.body !== undefined) {
      const schema = deref(spec, entry.operation.requestBody)?.content?.["application/json"]
        ?.schema;
      for (const item of breaks(schema, valid.body, [])) {
        add("body", item, () => ({ ...valid, body: broken(valid.body, item.path, item.value) }));
      }
    }
  }
  return found;
}

function withParameter(
  valid: SpecRequest,
  entry: OperationEntry,
  name: string,
  place: "query" | "header" | "path",
  value: unknown,
): SpecRequest | undefined {
  const request = structuredClone(valid);
  const bucket =
    place === "query" ? request.query : place === "header" ? request.headers : request.pathParams;
  if (value === DROP) delete bucket[name];
  else if (Array.isArray(entry.parameters.find((p) => p.name === name)?.schema?.items)) return;
  else bucket[name] = String(value);
  return request;
}

/** Each operation's 2xx answer and a distinct rule of its schema broken in it. */
async function brokenResponses(
  mockUrl: string,
): Promise<Array<{ keyword: string; operationId: string; status: number; body: unknown }>> {
  const tried = new Set<string>();
  const found: Array<{ keyword: string; operationId: string; status: number; body: unknown }> = [];
  for (const entry of operations) {
    const answer = await send(mockUrl, validRequest(entry.operationId));
    if (answer.status >= 300) continue;
    const response = deref(spec, entry.operation.responses?.[String(answer.status)]);
    const schema = response?.content?.["application/json"]?.schema;
    for (const item of breaks(schema, answer.body, [])) {
      if (tried.has(item.rule)) continue;
      tried.add(item.rule);
      const body = broken(answer.body, item.path, item.value);
      found.push({
        keyword: item.keyword,
        operationId: entry.operationId,
        status: answer.status,
        body,
      });
    }
  }
  return found;
}

let mock: RunningMock;
let sandbox: RunningMock;
let fake: FakeUpstream;
let proxy: RunningProxy;
const violations: Violation[] = [];

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ spec: specPath }),
    startMock({ spec: specPath, stateful: true }),
  ]);
  fake = await startFakeUpstream(mock.url);
  proxy = await startProxy({
    upstream: fake.url,
    spec: specPath,
    errors: true,
    onViolation: (violation) => violations.push(violation),
  });
});
afterAll(async () => {
  await proxy?.stop();
  await fake?.stop();
  await Promise.all([mock?.stop(), sandbox?.stop()]);
});

/** The messages a problem answer carries, each with what it was about. */
function messagesOf(body: unknown, about: string): Array<[string, string]> {
  const problem = body as Partial<Problem> | undefined;
  return [
    [about, problem?.detail ?? ""],
    ...(problem?.errors ?? []).map((error): [string, string] => [
      `${about}: ${error.location} ${error.field} (${error.rule})`,
      error.message,
    ]),
  ];
}

function unreadable(messages: Array<[string, string]>): string[] {
  return messages.flatMap(([about, message]) =>
    UNREADABLE.filter(([, pattern]) => pattern.test(message)).map(
      ([what]) => `${about}: ${what} in ${JSON.stringify(message)}`,
    ),
  );
}

describe("every schema rule the spec uses, broken", () => {
  it("is one of the keywords this test breaks", () => {
    const breakable = new Set([
      "type",
      "enum",
      "format",
      "pattern",
      "maxLength",
      "maximum",
      "minimum",
      "required",
      "anyOf",
      "allOf",
    ]);
    expect([...keywordsInSpec()].filter((keyword) => !breakable.has(keyword))).toEqual([]);
  });

  it("is refused in plain words by the mock, the sandbox and the proxy", async () => {
    const requests = brokenRequests();
    const messages: Array<[string, string]> = [];
    const rules = new Set<string>();
    for (const { keyword, request } of requests) {
      for (const [name, url] of Object.entries({
        mock: mock.url,
        sandbox: sandbox.url,
        proxy: proxy.url,
      })) {
        const answer = await send(url, request);
        const about = `${name} ${request.operationId} (${keyword})`;
        if (answer.status >= 400) {
          messages.push(...messagesOf(answer.body, about));
          for (const error of (answer.body as Problem).errors ?? []) rules.add(error.rule);
        }
      }
    }
    messages.push(...violations.map((v): [string, string] => [`proxy report`, v.message]));
    expect(unreadable(messages)).toEqual([]);
    // Each keyword a request can break was broken, and said so under its own rule.
    const keywords = new Set(requests.map(({ keyword }) => keyword));
    expect([...keywords].filter((keyword) => !rules.has(keyword))).toEqual([]);
    expect(requests.length).toBeGreaterThan(20);
  });

  it("in a response, is reported and replaced by the proxy in plain words", async () => {
    const responses = await brokenResponses(mock.url);
    const messages: Array<[string, string]> = [];
    const rules = new Set<string>();
    const relay = fake.answer;
    try {
      for (const { keyword, operationId, status, body } of responses) {
        fake.answer = (_, response) => {
          response
            .writeHead(status, { "content-type": "application/json" })
            .end(JSON.stringify(body));
        };
        violations.length = 0;
        const answer = await send(proxy.url, validRequest(operationId));
        const about = `proxy ${operationId} response (${keyword})`;
        messages.push(...messagesOf(answer.status === 502 ? answer.body : undefined, about));
        for (const violation of violations) {
          messages.push([about, violation.message]);
          rules.add(violation.rule);
        }
      }
    } finally {
      fake.answer = relay;
    }
    expect(unreadable(messages)).toEqual([]);
    const keywords = new Set(responses.map(({ keyword }) => keyword));
    expect([...keywords].filter((keyword) => !rules.has(keyword))).toEqual([]);
  });
});

describe("messages a person can act on", () => {
  async function errorsOf(url: string, request: SpecRequest) {
    const answer = await send(url, request);
    return (answer.body as Problem).errors;
  }

  it("say what a pattern means, as the spec describes it", async () => {
    const request = validRequest("createAutoramp");
    request.body = { ...(request.body as Json), wire_message: "1\n2\n3\n4\n5" };
    expect(await errorsOf(mock.url, request)).toContainEqual(
      expect.objectContaining({
        field: "wire_message",
        rule: "pattern",
        message: 'must be at most 4 lines of at most 35 characters each; got "1\\n2\\n3\\n4\\n5"',
      }),
    );
  });

  it("list an enum's values and name the value received, in the mock and the proxy", async () => {
    const request = validRequest("createCustomer");
    request.body = { ...(request.body as Json), customer_type: "Robot" };
    const expected = 'must be one of Business, Person; got "Robot"';
    expect(await errorsOf(mock.url, request)).toContainEqual(
      expect.objectContaining({ field: "customer_type", rule: "enum", message: expected }),
    );
    violations.length = 0;
    expect(await errorsOf(proxy.url, request)).toContainEqual(
      expect.objectContaining({ field: "customer_type", message: expected }),
    );
    expect(violations.map((violation) => violation.message)).toEqual([
      `createCustomer request: body customer_type: ${expected}`,
    ]);
  });

  it("say a header was sent empty rather than missing", async () => {
    const request = validRequest("createCustomer");
    request.headers["IDEMPOTENCY-KEY"] = "";
    for (const url of [mock.url, proxy.url]) {
      expect(await errorsOf(url, request)).toContainEqual(
        expect.objectContaining({
          field: "IDEMPOTENCY-KEY",
          message: "was sent empty; it must have a value",
        }),
      );
    }
    request.headers["X-API-Key"] = "";
    expect(await errorsOf(mock.url, request)).toContainEqual(
      expect.objectContaining({
        field: "X-API-Key",
        message: "was sent empty; it must have the partner's API key",
      }),
    );
  });

  it("name the examples that exist when Prefer asks for one that does not", async () => {
    const request = validRequest("listCustomers");
    request.headers.Prefer = "example=nope";
    const [error] = await errorsOf(mock.url, request);
    const examples = Object.keys(
      deref(
        spec,
        operations.find((o) => o.operationId === "listCustomers")?.operation.responses["200"],
      ).content["application/json"].examples,
    );
    expect(error).toMatchObject({ field: "Prefer", rule: "prefer" });
    expect(error?.message).toBe(
      `example: no example is named "nope"; its examples are ${examples.join(", ")}`,
    );
  });

  it("name the fields a missing body must have, in the mock, the sandbox and the proxy", async () => {
    const request = validRequest("pingWebhook");
    delete request.body;
    delete request.headers["Content-Type"];
    for (const url of [mock.url, sandbox.url, proxy.url]) {
      const answer = await send(url, request);
      expect(answer.status).toBe(422);
      expect((answer.body as Problem).errors).toEqual([
        {
          location: "body",
          field: "customer_id",
          rule: "required",
          message: "is required; the request sent no body: send a JSON object with it",
        },
      ]);
    }
  });

  it("say that a body whose fields are all optional is still required", async () => {
    const request = validRequest("updateWebhook");
    delete request.body;
    delete request.headers["Content-Type"];
    expect(await errorsOf(mock.url, request)).toEqual([
      {
        location: "body",
        field: "",
        rule: "required",
        message: "is required; the request sent none: send a JSON object",
      },
    ]);
  });

  it.each([
    ["false", "must be an object; got true or false"],
    ["0", "must be an object; got a number"],
    ["null", "must be an object; got null"],
  ])("say what a body sent as %s must be, not that it is missing", async (rawBody, message) => {
    const request = { ...validRequest("pingWebhook"), rawBody };
    expect(await errorsOf(mock.url, request)).toEqual([
      { location: "body", field: "", rule: "type", message },
    ]);
  });

  it.each([
    ["1e999", "1e999", "a number past 1.8e308, too large to read"],
    ["400 nines", "9".repeat(400), "a number past 1.8e308, too large to read"],
    ["-1e999", "-1e999", "a number below -1.8e308, too large to read"],
  ])(
    "say what a number past a double's range was, not null (seconds: %s)",
    async (_, seconds, got) => {
      const request: SpecRequest = {
        operationId: "advanceClock",
        method: "POST",
        path: "/_sandbox/clock/advance",
        pathParams: {},
        query: {},
        headers: { "X-API-Key": crypto.randomUUID(), "Content-Type": "application/json" },
        rawBody: `{"seconds":${seconds}}`,
      };
      const rule = seconds.startsWith("-") ? "minimum" : "maximum";
      const errors = await errorsOf(sandbox.url, request);
      expect(errors).toContainEqual(
        expect.objectContaining({
          field: "seconds",
          rule,
          message: expect.stringContaining(`; got ${got}`),
        }),
      );
      expect(JSON.stringify(errors)).not.toContain("got null");
    },
  );

  it("never quote a value that holds the API key", async () => {
    const request = validRequest("createCustomer");
    const key = request.headers["X-API-Key"] ?? "";
    request.body = { ...(request.body as Json), customer_type: key };
    const answer = await send(mock.url, request);
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).not.toContain(key);
  });
});
