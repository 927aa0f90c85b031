// fast-check arbitraries for requests to the spec's operations: a valid request built from the
// spec's examples, with up to three mutations of the kinds a fuzzer or a careless client makes.

import type { OpenApiDocument, OperationEntry } from "@org/payments-spec";
import fc from "fast-check";
import { type SpecRequest, spec, specRequests } from "./spec-requests.ts";

/** A request as it goes on the wire: the target is sent byte for byte, never normalised. */
export interface WireRequest {
  operationId: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

type Mutation =
  | { kind: "path"; index: number; value: string }
  | { kind: "query"; name: string; value: string }
  | { kind: "drop-header"; name: string }
  | { kind: "header"; name: string; value: string }
  | { kind: "body"; value: unknown }
  | { kind: "body-field"; field: string; value: unknown }
  | { kind: "raw-body"; text: string }
  | { kind: "prefer"; value: string };

/** Names that are also keys of every JavaScript object: a parser that uses `{}` trips on them. */
const OBJECT_KEYS = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"];

/**
 * The values mutations put in, made on first use: fast-check's binary strings take most of a
 * second to set up, which every test process that imports this package would pay otherwise.
 */
let values: ReturnType<typeof makeValues> | undefined;

function makeValues() {
  /** Already percent-encoded text, or the malformed and traversal escapes scanners try. */
  const encodedText = fc.oneof(
    fc.string({ minLength: 1, maxLength: 40, unit: "binary" }).map(encodeURIComponent),
    fc.constantFrom("%ZZ", "%E0%A4%A", "..%2f..%2fetc", "%00", "%2e%2e", "%", "a%2Fb"),
  );
  const queryValue = fc.oneof(
    encodedText,
    fc.constantFrom("", "0x10", "1e1", "10.0", "-1", "101", "99999999999999999999", "true"),
    fc.integer().map(String),
  );
  /** Header values Node can send: visible ASCII and spaces, no leading or trailing space. */
  const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,38}[\x21-\x7e])?$/);
  const preferValue = fc.oneof(
    fc.integer({ min: 100, max: 599 }).map((code) => `code=${code}`),
    fc.constantFrom("code=abc", "dynamic=true", "dynamic=maybe", "example=nope", "seed=1"),
    headerValue,
  );
  return { encodedText, queryValue, headerValue, preferValue };
}

function mutation(entry: OperationEntry, request: SpecRequest): fc.Arbitrary<Mutation> {
  const pathParameters = entry.parameters.filter((p) => p.in === "path");
  const queryNames = entry.parameters.filter((p) => p.in === "query").map((p) => p.name);
  const headerNames = entry.parameters.filter((p) => p.in === "header").map((p) => p.name);
  const bodyFields = Object.keys(request.body ?? {});
  values ??= makeValues();
  const { encodedText, queryValue, headerValue, preferValue } = values;
  const kinds: fc.Arbitrary<Mutation>[] = [
    fc.record({
      kind: fc.constant("query" as const),
      name: fc.oneof(fc.constantFrom(...queryNames, ...OBJECT_KEYS), fc.string({ maxLength: 8 })),
      value: queryValue,
    }),
    fc.record({
      kind: fc.constant("drop-header" as const),
      name: fc.constantFrom("X-API-Key", "Content-Type", ...headerNames),
    }),
    fc.record({
      kind: fc.constant("header" as const),
      name: fc.constantFrom("Content-Type", "Accept", ...headerNames, ...OBJECT_KEYS),
      value: headerValue,
    }),
    fc.record({ kind: fc.constant("prefer" as const), value: preferValue }),
    fc.record({ kind: fc.constant("body" as const), value: fc.jsonValue({ maxDepth: 3 }) }),
    fc.record({ kind: fc.constant("raw-body" as const), text: fc.string({ maxLength: 60 }) }),
  ];
  if (pathParameters.length > 0) {
    kinds.push(
      fc.record({
        kind: fc.constant("path" as const),
        index: fc.nat({ max: pathParameters.length - 1 }),
        value: encodedText,
      }),
    );
  }
  if (bodyFields.length > 0) {
    kinds.push(
      fc.record({
        kind: fc.constant("body-field" as const),
        field: fc.constantFrom(...bodyFields),
        value: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
      }),
    );
  }
  return fc.oneof(...kinds);
}

/** A request to one of a spec's operations, valid or broken by up to three mutations. */
export function fuzzRequests(doc: OpenApiDocument): fc.Arbitrary<WireRequest> {
  const { operations, validRequest } = specRequests(doc);
  return fc.constantFrom(...operations).chain((entry) => {
    const request = validRequest(entry.operationId);
    return fc
      .array(mutation(entry, request), { maxLength: 3 })
      .map((mutations) => toWire(entry, structuredClone(request), mutations));
  });
}

/** A request to one of the shipped spec's operations, valid or broken by up to three mutations. */
export const fuzzRequest: fc.Arbitrary<WireRequest> = fuzzRequests(spec);

function toWire(entry: OperationEntry, request: SpecRequest, mutations: Mutation[]): WireRequest {
  const pathValues = entry.parameters
    .filter((p) => p.in === "path")
    .map((p) => encodeURIComponent(request.pathParams[p.name] ?? ""));
  const query = Object.entries(request.query).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map(
      (item) => `${encodeURIComponent(name)}=${encodeURIComponent(item)}`,
    ),
  );
  const headers = { ...request.headers };
  let body = request.body === undefined ? undefined : JSON.stringify(request.body);
  for (const change of mutations) {
    if (change.kind === "path") pathValues[change.index] = change.value;
    else if (change.kind === "query")
      query.push(`${encodeURIComponent(change.name)}=${change.value}`);
    else if (change.kind === "drop-header") delete headers[change.name];
    else if (change.kind === "header") headers[change.name] = change.value;
    else if (change.kind === "prefer") headers.Prefer = change.value;
    else if (change.kind === "body") body = JSON.stringify(change.value);
    else if (change.kind === "raw-body") body = change.text;
    else {
      const fields = { ...(request.body as Record<string, unknown>), [change.field]: change.value };
      body = JSON.stringify(fields);
    }
  }
  let index = 0;
  const path = entry.path.replace(/\{[^}]+\}/g, () => pathValues[index++] ?? "");
  return {
    operationId: entry.operationId,
    method: request.method,
    target: query.length > 0 ? `${path}?${query.join("&")}` : path,
    headers,
    body,
  };
}
