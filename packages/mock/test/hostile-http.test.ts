// What a scanner or a fuzzer sends, over real sockets: every answer is a prompt 4xx with a problem
// body (or a clean close), never a 5xx or a hang, and a disconnect is not logged as a failure.
// This is the mock's HTTP handling, not the API's: it is tested on a tiny spec, and on the API's
// spec only where every one of the API's operations must refuse (JSON nested past the limit).
import type { Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { MAX_JSON_DEPTH } from "@org/payments-engine";
import { specPath } from "@org/payments-spec";
import {
  DEEP_BODIES,
  expectEveryOperationRefuses,
  fixtureSpecPath,
  rawExchange,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Problem, type RunningMock, startMock } from "../src/index.js";

const hostileSpec = fixtureSpecPath("hostile");

let mock: RunningMock;
let apiMock: RunningMock;
const logged: string[] = [];

beforeAll(async () => {
  const options = {
    log: (line: string) => logged.push(line),
    // Short, so that a test of the header timeout waits about a second, not the default ten.
    limits: { headersMs: 1_000, requestMs: 5_000, keepAliveMs: 1_000 },
  };
  [mock, apiMock] = await Promise.all([
    startMock({ ...options, spec: hostileSpec }),
    startMock({ ...options, spec: specPath }),
  ]);
});
afterAll(() => Promise.all([mock?.stop(), apiMock?.stop()]));

/** Writes `payload` on a raw connection, lets `more` keep writing, and resolves with what came back once the server closes it. */
const raw = (payload: string, more?: (socket: Socket) => void) =>
  rawExchange(mock.url, payload, more);

const statusLine = (answer: string) => answer.split("\r\n")[0];
/** The JSON problem in a raw answer, whether sent with a length or in chunks. */
const problemOf = (answer: string) =>
  JSON.parse(answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1));

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(`${mock.url}${path}`, {
    ...init,
    headers: { "X-API-Key": "k", ...init.headers },
  });
  return { status: response.status, response, text: await response.text() };
}

describe("malformed percent-encoding", () => {
  it("in a path parameter is a 400 that names the parameter", async () => {
    const { status, text } = await get("/items/%ZZ/external");
    expect(status).toBe(400);
    expect(JSON.parse(text) as Problem).toMatchObject({
      errors: [{ location: "path", field: "external_id", rule: "encoding" }],
    });
  });

  it("in a query value is a 400 that names the parameter", async () => {
    const { status, text } = await get("/items?search_term=%E0%A4%A");
    expect(status).toBe(400);
    expect(JSON.parse(text) as Problem).toMatchObject({
      errors: [{ location: "query", field: "search_term", rule: "encoding" }],
    });
  });
});

describe("integer query parameters", () => {
  it.each(["0x10", "1e1", "10.0", "+5", " 5"])(
    "page_size=%s is a 422 that names the parameter: only decimal integers are integers",
    async (value) => {
      const { status, text } = await get(`/items?page_size=${encodeURIComponent(value)}`);
      expect(status).toBe(422);
      expect(JSON.parse(text) as Problem).toMatchObject({
        errors: [{ location: "query", field: "page_size", rule: "type" }],
      });
    },
  );

  it("accepts a decimal integer within the limits", async () => {
    expect((await get("/items?page_size=10")).status).toBe(200);
  });
});

describe("integer query parameters past their format's range, on the API's spec", () => {
  const rate = (bips: string) =>
    fetch(
      `${apiMock.url}/exchange-rate?${new URLSearchParams({
        customer_id: crypto.randomUUID(),
        source_currency_code: "EUR",
        source_currency_type: "fiat",
        destination_currency_code: "USDC",
        destination_currency_type: "crypto",
        amount: "250.00",
        _partner_fee_in_bips: bips,
      })}`,
      { headers: { "X-API-Key": "k" } },
    );

  it.each([
    ["2^64", "18446744073709551616"],
    ["400 digits", "9".repeat(400)],
  ])(
    "uint64 _partner_fee_in_bips of %s is a 422 naming the format, where it passed",
    async (_, bips) => {
      const answer = await rate(bips);
      expect(answer.status).toBe(422);
      expect((await answer.json()).errors).toEqual([
        {
          location: "query",
          field: "_partner_fee_in_bips",
          rule: "format",
          message: expect.stringMatching(
            /^must be a whole number from 0 to 18446744073709551615; got /,
          ),
        },
      ]);
    },
  );

  it("takes the largest uint64, 2^64 - 1, exactly", async () => {
    expect((await rate("18446744073709551615")).status).toBe(200);
  });

  it("names an int64 past 2^63 - 1 once, in the same words Prism's check has for 400 digits", async () => {
    const quote = `${apiMock.url}/autoramps/quote?${new URLSearchParams({
      customer_id: crypto.randomUUID(),
      source_currency_code: "EUR",
      destination_currency_code: "USDC",
      recipient_account: "DE89370400440532013000",
      amount_in: "250.00",
      rate_expiry_policy: "Slippage",
      expiry_in_hours: "2",
      is_third_party: "true",
    })}`;
    for (const minutes of ["9223372036854775808", "9".repeat(400)]) {
      const answer = await fetch(`${quote}&rate_lock_duration_minutes=${minutes}`, {
        headers: { "X-API-Key": "k" },
      });
      expect(answer.status, minutes).toBe(422);
      const formats = (await answer.json()).errors.filter(
        (error: { field: string; rule: string }) =>
          error.field === "rate_lock_duration_minutes" && error.rule === "format",
      );
      expect(formats, minutes).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(
            "must be a whole number from -9223372036854775808 to 9223372036854775807",
          ),
        }),
      ]);
    }
    const inRange = await fetch(`${quote}&rate_lock_duration_minutes=45`, {
      headers: { "X-API-Key": "k" },
    });
    expect(inRange.status).toBe(200);
  });
});

describe("the request target is taken literally", () => {
  it.each(["//evil.example/items", "/items/..%2f..%2fetc", "/items/../items"])(
    "%s is a 404",
    async (path) => {
      const answer = await raw(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nConnection: close\r\n\r\n`,
      );
      expect(statusLine(answer)).toBe("HTTP/1.1 404 Not Found");
      expect(problemOf(answer)).toMatchObject({ status: 404 });
    },
  );

  it("a target that cannot be parsed as a URL is a 404, not a 500", async () => {
    const answer = await raw(
      "GET //[ HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nConnection: close\r\n\r\n",
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 404 Not Found");
  });
});

describe("bodies", () => {
  it("a JSON body without Content-Type is a 415", async () => {
    const body = JSON.stringify({ name: "first" });
    const answer = await raw(
      `POST /items HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nIDEMPOTENCY-KEY: ${crypto.randomUUID()}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 415 Unsupported Media Type");
    expect(problemOf(answer)).toMatchObject({
      errors: [{ location: "header", field: "Content-Type", rule: "mediaType" }],
    });
  });

  it("a chunked body that never ends gets a 413 once past 1 MiB, and the connection closes", async () => {
    let sent = 0;
    const answer = await raw(
      "POST /items HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      (socket) => {
        const chunk = `${(64 * 1024).toString(16)}\r\n${"a".repeat(64 * 1024)}\r\n`;
        const pump = () => {
          // Far more than the limit: the server must answer and close long before this runs out.
          while (sent < 64 * 1024 * 1024 && !socket.destroyed) {
            sent += 64 * 1024;
            if (!socket.write(chunk)) {
              socket.once("drain", pump);
              return;
            }
          }
        };
        pump();
      },
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 413 Payload Too Large");
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("a client that disconnects mid-body is logged as a disconnect, not a 500", async () => {
    await raw(
      'POST /items HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
      (socket) => setTimeout(() => socket.destroy(), 100),
    );
    await expect
      .poll(() => logged.some((line) => / → client disconnected request-id=\S+$/.test(line)))
      .toBe(true);
    expect(logged.filter((line) => line.includes("→ 500"))).toEqual([]);
  });
});

describe("the bytes of a JSON body, on the API's spec", () => {
  const customer = JSON.stringify({ customer_type: "Person", email: "ada@lumen.example" });
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${apiMock.url}/customers`, {
      method: "POST",
      body,
      headers: {
        "X-API-Key": "k",
        "IDEMPOTENCY-KEY": crypto.randomUUID(),
        "Content-Type": "application/json",
        ...headers,
      },
    });

  it("not UTF-8 (Latin-1 whatever its charset says) is a 400 naming the rule", async () => {
    const latin1 = Buffer.from(
      JSON.stringify({ customer_type: "Person", email: "é@x.example" }),
      "latin1",
    );
    for (const charset of ["", "; charset=latin1"]) {
      const answer = await post(latin1, { "Content-Type": `application/json${charset}` });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        type: "urn:org:payments-mock:problem:malformed-json",
        errors: [{ location: "body", rule: "encoding" }],
      });
    }
  });

  it("after a byte order mark is read as without one", async () => {
    const answer = await post(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(customer)]),
    );
    expect(answer.status).toBe(200);
  });

  it("gzip-encoded, a bomb among them, is a prompt 415 naming Content-Encoding, never inflated", async () => {
    for (const body of [gzipSync(customer), gzipSync(Buffer.alloc(10_000_000, 0x20))]) {
      const answer = await post(body, { "Content-Encoding": "gzip" });
      expect(answer.status).toBe(415);
      expect(await answer.json()).toMatchObject({
        errors: [{ location: "header", field: "Content-Encoding", rule: "encoding" }],
      });
    }
    expect(logged.filter((line) => line.includes("→ 5"))).toEqual([]);
  });
});

describe("JSON nested past the limit", () => {
  it.each(DEEP_BODIES)(
    "%s gets a 400 naming the limit from every operation with a body, the test mode's too",
    async (_, text) => {
      await expectEveryOperationRefuses(apiMock.url, text, MAX_JSON_DEPTH);
      expect(logged.filter((line) => line.includes("→ 5"))).toEqual([]);
    },
  );
});

describe("HEAD", () => {
  it("is answered wherever GET is: same status and headers, no body", async () => {
    const head = await get("/items", { method: "HEAD" });
    const getAnswer = await get("/items");
    expect(head.status).toBe(getAnswer.status);
    expect(head.response.headers.get("content-type")).toBe(
      getAnswer.response.headers.get("content-type"),
    );
    expect(head.text).toBe("");
  });
});

describe("what the HTTP parser refuses still gets a problem body", () => {
  it("a 20 KB URL is a 431 with a problem body", async () => {
    const answer = await raw(
      `GET /items?search_term=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/);
    // A browser page that sent it can read why.
    expect(answer).toMatch(/\r\naccess-control-allow-origin: \*\r\n/);
    expect(problemOf(answer)).toMatchObject({ status: 431, errors: [{ rule: "http" }] });
  });

  it("headers that trickle in past the limit get a 408 and the connection closes", async () => {
    const answer = await raw("GET /items HTTP/1.1\r\nHost: x\r\n", (socket) => {
      // One header byte every 200 ms: never complete, never idle.
      const timer = setInterval(() => {
        if (socket.destroyed) clearInterval(timer);
        else socket.write("X");
      }, 200);
      socket.on("close", () => clearInterval(timer));
    });
    expect(statusLine(answer)).toBe("HTTP/1.1 408 Request Timeout");
    expect(problemOf(answer)).toMatchObject({ status: 408 });
  });

  it("malformed HTTP is a 400 with a problem body", async () => {
    const answer = await raw("NOT HTTP AT ALL\r\n\r\n");
    expect(statusLine(answer)).toBe("HTTP/1.1 400 Bad Request");
    expect(problemOf(answer)).toMatchObject({ status: 400 });
  });

  it("an Expect other than 100-continue is a 417 with a problem body", async () => {
    const answer = await raw("GET /items HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n");
    expect(statusLine(answer)).toBe("HTTP/1.1 417 Expectation Failed");
    expect(problemOf(answer)).toMatchObject({
      status: 417,
      errors: [{ location: "header", field: "Expect" }],
    });
  });

  it("an HTTP/1.1 request without Host is a 400 with a problem naming Host, where Node sent no body", async () => {
    const answer = await raw("GET /items HTTP/1.1\r\nX-API-Key: k\r\n\r\n");
    expect(statusLine(answer)).toBe("HTTP/1.1 400 Bad Request");
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(problemOf(answer)).toMatchObject({
      status: 400,
      errors: [{ location: "header", field: "Host", rule: "required" }],
    });
    // HTTP/1.0 has no Host to require.
    const older = await raw("GET /items HTTP/1.0\r\nX-API-Key: k\r\n\r\n");
    expect(statusLine(older)).toBe("HTTP/1.1 200 OK");
  });

  it("a request with two Host headers is a 400 naming Host, where Node took the first", async () => {
    const answer = await raw("GET /items HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-API-Key: k\r\n\r\n");
    expect(statusLine(answer)).toBe("HTTP/1.1 400 Bad Request");
    expect(problemOf(answer)).toMatchObject({
      status: 400,
      errors: [{ location: "header", field: "Host", rule: "unique" }],
    });
  });

  it("a request with two X-API-Key headers is a 400 naming X-API-Key, not a key joined of both", async () => {
    const answer = await rawExchange(
      apiMock.url,
      "GET /customers HTTP/1.1\r\nHost: x\r\nX-API-Key: key-a\r\nX-API-Key: key-b\r\nConnection: close\r\n\r\n",
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 400 Bad Request");
    expect(problemOf(answer)).toMatchObject({
      status: 400,
      errors: [{ location: "header", field: "X-API-Key", rule: "unique" }],
    });
  });

  it("a body shorter than its Content-Length gets a 408 once the request time passes, not a hang", async () => {
    const answer = await raw(
      'POST /items HTTP/1.1\r\nHost: x\r\nX-API-Key: k\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":1}',
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 408 Request Timeout");
    expect(problemOf(answer)).toMatchObject({ status: 408 });
  });
});

describe("a small request cannot buy a large answer", () => {
  it("900 invalid ids get at most 50 listed problems and a count of the rest", async () => {
    const query = Array.from({ length: 900 }, () => "ids=bad").join("&");
    const { status, text } = await get(`/items/ids?${query}`);
    expect(status).toBe(422);
    const problem = JSON.parse(text) as Problem & { omitted?: number };
    expect(problem.errors.length).toBeLessThanOrEqual(50);
    expect(problem.errors.length + (problem.omitted ?? 0)).toBeGreaterThanOrEqual(900);
    expect(text.length).toBeLessThan(16_000);
  });
});
