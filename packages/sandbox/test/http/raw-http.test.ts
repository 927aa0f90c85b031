// What the sandbox's server answers before the sandbox sees a request, over a raw socket: a
// problem body, never Node's bare status line.
import { API_KEY, rawExchange } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const raw = (request: string) => rawExchange(sandbox.url, request);

it("answers an HTTP/1.1 request without Host with a 400 problem naming Host", async () => {
  const answer = await raw(`GET /customers HTTP/1.1\r\nX-API-Key: ${API_KEY}\r\n\r\n`);
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
    status: 400,
    errors: [{ location: "header", field: "Host", rule: "required" }],
  });
});
