// Reading a request without a server or a spec: a stream that carries the request line's parts,
// its headers and its body, and a stand-in for the engine's naming of path segments.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/http/json-depth.js";
import { readPlainRequest } from "../../src/http/plain.js";
import { MAX_BODY_BYTES, readRequest, type SegmentName } from "../../src/http/read-request.js";

function incoming(
  url: string,
  headers: Record<string, string> = {},
  body: string | Uint8Array = "",
  method = "POST",
): IncomingMessage {
  const stream = Readable.from(body.length === 0 ? [] : [Buffer.from(body)]);
  return Object.assign(stream, {
    url,
    method,
    headers,
    complete: true,
  }) as unknown as IncomingMessage;
}

/** Names segment 2 `id`, as an engine would for `/customers/{id}`. */
const nameOf: SegmentName = (_, __, index) => (index === 2 ? "id" : "");

describe("readRequest", () => {
  it("reads the path, the decoded query (repeats joined and listed), headers and the JSON body", async () => {
    const read = await readRequest(
      incoming(
        "/customers?ids=a&ids=b&q=x%20y&tags=c,d",
        { "content-type": "application/json" },
        '{"a":1}',
      ),
      nameOf,
    );
    expect(read).toEqual({
      ok: true,
      request: {
        method: "POST",
        path: "/customers",
        query: { ids: "a,b", q: "x y", tags: "c,d" },
        headers: { "content-type": "application/json" },
        body: { a: 1 },
      },
      repeated: ["ids"],
      // A value sent with a comma in is listed apart from the repeated.
      commaValued: ["tags"],
      text: '{"a":1}',
    });
  });

  it("names the path parameter a malformed escape stands in, as the engine names it", async () => {
    const read = await readRequest(incoming("/customers/%ZZ/signings"), nameOf);
    expect(read).toMatchObject({
      ok: false,
      status: 400,
      error: { location: "path", field: "id", rule: "encoding" },
    });
  });

  it.each([
    ["/customers", { "content-type": "application/json" }, "{", 400, "json"],
    ["/customers", {}, '{"a":1}', 415, "mediaType"],
    ["/customers", { "content-type": "not a type" }, "", 400, "mediaType"],
    ["/customers?q=%ZZ", {}, "", 400, "encoding"],
    ["customers", {}, "", 404, "route"],
  ])("refuses %s %j %j with %i (%s)", async (url, headers, body, status, rule) => {
    const read = await readRequest(incoming(url, headers, body), nameOf);
    expect(read).toMatchObject({ ok: false, status, error: { rule } });
  });

  const json = { "content-type": "application/json" };
  const gzip = { ...json, "content-encoding": "gzip" };
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

  it.each([
    [
      "bytes that are not UTF-8",
      json,
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    ],
    [
      "UTF-16 under a charset that says so",
      { "content-type": "application/json; charset=utf-16le" },
      Buffer.from('{"a":"é"}', "utf16le"),
    ],
    [
      "Latin-1 under a charset that says so",
      { "content-type": "application/json; charset=latin1" },
      Buffer.from('{"a":"é"}', "latin1"),
    ],
  ])(
    "refuses a JSON body of %s with a 400, not a body with U+FFFD in (both readers)",
    async (_, headers, body) => {
      const refused = { ok: false, status: 400, error: { location: "body", rule: "encoding" } };
      expect(await readRequest(incoming("/customers", headers, body), nameOf)).toMatchObject(
        refused,
      );
      const plain = { method: "POST", url: "/customers", headers, body };
      expect(readPlainRequest(plain, nameOf)).toMatchObject(refused);
    },
  );

  it("reads a JSON body after a byte order mark the same on both readers", async () => {
    const body = Buffer.concat([BOM, Buffer.from('{"a":"é"}')]);
    const read = { ok: true, request: { body: { a: "é" } }, text: '{"a":"é"}' };
    expect(await readRequest(incoming("/customers", json, body), nameOf)).toMatchObject(read);
    const plain = { method: "POST", url: "/customers", headers: json, body };
    expect(readPlainRequest(plain, nameOf)).toMatchObject(read);
  });

  it("refuses a body in a Content-Encoding it does not decode with a 415, a gzip bomb unopened", async () => {
    const refused = {
      ok: false,
      status: 415,
      error: { location: "header", field: "Content-Encoding", rule: "encoding" },
    };
    // 10 MB of spaces that a reader which inflated bodies would grow far past the limit.
    const bomb = gzipSync(Buffer.alloc(10_000_000, 0x20));
    for (const [headers, body] of [
      [gzip, gzipSync('{"a":1}')],
      [gzip, bomb],
      [{ ...json, "content-encoding": "br" }, Buffer.from('{"a":1}')],
      [{ ...json, "content-encoding": "identity, gzip" }, gzipSync('{"a":1}')],
    ] as const) {
      expect(await readRequest(incoming("/customers", headers, body), nameOf)).toMatchObject(
        refused,
      );
      const plain = { method: "POST", url: "/customers", headers, body };
      expect(readPlainRequest(plain, nameOf)).toMatchObject(refused);
    }
    // identity is no coding at all; nor is a coding named on a request without a body.
    const identity = { ...json, "content-encoding": "Identity" };
    expect(await readRequest(incoming("/customers", identity, '{"a":1}'), nameOf)).toMatchObject({
      ok: true,
      request: { body: { a: 1 } },
    });
    expect(await readRequest(incoming("/customers", gzip, "", "GET"), nameOf)).toMatchObject({
      ok: true,
    });
  });

  it("refuses a body past its limit without reading it all", async () => {
    const read = await readRequest(
      incoming(
        "/customers",
        { "content-type": "application/json" },
        "x".repeat(MAX_BODY_BYTES + 1),
      ),
      nameOf,
    );
    expect(read).toMatchObject({ ok: false, status: 413, error: { rule: "maxBytes" } });
  });
});

describe("nestsDeeperThan", () => {
  it.each([
    ["[[1]]", 2, false],
    ["[[[1]]]", 2, true],
    ['{"a":{"b":[]}}', 2, true],
    ['{"a":{"b":1}}', 2, false],
    // Brackets inside strings, escaped quotes included, are no nesting.
    ['["[[[\\"[[[", "{{{"]', 1, false],
    ['[{"a":[1]},{"b":[2]}]', 3, false],
  ])("%s nests deeper than %i: %s", (text, limit, deeper) => {
    expect(nestsDeeperThan(text, limit)).toBe(deeper);
  });

  it(`refuses JSON deeper than ${MAX_JSON_DEPTH} with a 400 that names the limit`, async () => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    const read = await readRequest(
      incoming("/customers", { "content-type": "application/json" }, deep),
      nameOf,
    );
    expect(read).toMatchObject({
      ok: false,
      status: 400,
      kind: "too-deep",
      error: { location: "body", rule: "maxDepth", message: expect.stringContaining("at most 64") },
    });
    const deepest = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(
      await readRequest(
        incoming("/customers", { "content-type": "application/json" }, deepest),
        nameOf,
      ),
    ).toMatchObject({ ok: true });
  });
});
