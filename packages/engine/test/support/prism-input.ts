// A fuzzed request as Prism is given it, with the body headers a client may state whatever its
// body: for the tests that hold the mock's copies of Prism's steps to Prism's own.

import type { WireRequest } from "@org/payments-testing";
import fc from "fast-check";

/** The media types and lengths a request may state, whatever its body: the body checks turn on them. */
export const bodyHeaders = fc.record({
  "content-type": fc.option(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/merge-patch+json",
      "*/*",
    ),
    { nil: undefined },
  ),
  "content-length": fc.option(fc.constantFrom("0", "12", "0x10"), { nil: undefined }),
  dropBody: fc.boolean(),
});

/** What Prism is given for a request: decoded query, lower-case headers, the body parsed if it can be. */
export function prismInput(
  wire: WireRequest,
  stated: typeof bodyHeaders extends fc.Arbitrary<infer T> ? T : never,
) {
  const [path = "", query = ""] = wire.target.split("?");
  const values: Record<string, string> = {};
  for (const pair of query.split("&").filter(Boolean)) {
    const [name = "", value = ""] = pair.split("=");
    values[safeDecode(name)] = safeDecode(value);
  }
  let body: unknown = wire.body;
  try {
    body = wire.body === undefined ? undefined : JSON.parse(wire.body);
  } catch {}
  const headers = Object.fromEntries(
    Object.entries(wire.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  if (wire.body !== undefined) headers["content-length"] = String(Buffer.byteLength(wire.body));
  for (const name of ["content-type", "content-length"] as const) {
    const value = stated[name];
    if (value !== undefined) headers[name] = value;
  }
  if (stated.dropBody) body = undefined;
  return {
    method: wire.method.toLowerCase() as "get",
    url: { path, query: values },
    headers,
    body,
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
