// CORS: browser apps on another origin can call the mock, errors included, unless it is turned off.
// CORS is the mock's, not the API's: it is tested on a tiny spec, and on the API's spec only where
// the sandbox answers (Idempotent-Replayed).
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { specPath } from "@org/payments-spec";
import { fixtureSpecPath, launchChromium } from "@org/payments-testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

const itemsSpec = fixtureSpecPath("items");

let mock: RunningMock;
let mockWithoutCors: RunningMock;
let sandbox: RunningMock;

beforeAll(async () => {
  [mock, mockWithoutCors, sandbox] = await Promise.all([
    startMock({ spec: itemsSpec }),
    startMock({ spec: itemsSpec, cors: false }),
    startMock({ spec: specPath, stateful: true }),
  ]);
});
afterAll(() => Promise.all([mock?.stop(), mockWithoutCors?.stop(), sandbox?.stop()]));

const ORIGIN = "http://app.example.test";

function preflight(baseUrl: string) {
  return fetch(`${baseUrl}/items`, {
    method: "OPTIONS",
    headers: {
      Origin: ORIGIN,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "x-api-key, idempotency-key, content-type",
    },
  });
}

describe("CORS over HTTP", () => {
  it("answers a preflight with 204, allowing the origin, method and headers it asks for", async () => {
    const answer = await preflight(mock.url);
    expect(answer.status).toBe(204);
    const header = (name: string) => answer.headers.get(name);
    expect(header("access-control-allow-origin")).toBe(ORIGIN);
    expect(header("access-control-allow-methods")).toBe("POST");
    expect(header("access-control-allow-headers")).toBe("x-api-key, idempotency-key, content-type");
    expect(header("vary")).toBe("Origin");
    expect(await answer.text()).toBe("");
  });

  it.each([
    ["a success", "/items", 200],
    ["a validation error", "/items?page_size=1000", 422],
    ["a path of no operation", "/nowhere", 404],
  ])("puts the CORS headers on %s", async (_, path, status) => {
    const answer = await fetch(`${mock.url}${path}`, {
      headers: { Origin: ORIGIN, "X-API-Key": "k" },
    });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(answer.headers.get("access-control-expose-headers")).toBe("*");
  });

  it("with cors: false, a preflight is an OPTIONS like any other (405) and no answer has CORS headers", async () => {
    const answer = await preflight(mockWithoutCors.url);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const list = await fetch(`${mockWithoutCors.url}/items`, {
      headers: { Origin: ORIGIN, "X-API-Key": "k" },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS from a page in Chromium", () => {
  let pageServer: Server;
  let pageUrl: string;
  let chromiumRun: Awaited<ReturnType<typeof launchChromium<BrowserContext>>>;
  let page: Page;

  beforeAll(async () => {
    // The app's page, on an origin of its own (another port).
    pageServer = createServer((_, response) => {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>app</title>");
    });
    pageServer.listen(0, "127.0.0.1");
    await once(pageServer, "listening");
    pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
    chromiumRun = await launchChromium(chromium);
    page = chromiumRun.context.pages()[0] ?? (await chromiumRun.context.newPage());
    await page.goto(pageUrl);
  }, 60_000);

  afterAll(async () => {
    await chromiumRun?.close();
    pageServer?.close();
  });

  /** What the page's own fetch() sees: the status and body, or the error it throws. */
  function fetchFromPage(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ) {
    return page.evaluate(
      async ({ url, init }) => {
        try {
          const response = await fetch(url, init);
          return { status: response.status, body: await response.json() };
        } catch (error) {
          return { error: String(error) };
        }
      },
      { url, init },
    );
  }

  it("a POST with the API key and an idempotency key (so a preflight) succeeds", async () => {
    const result = await fetchFromPage(`${mock.url}/items`, {
      method: "POST",
      headers: {
        "X-API-Key": "k",
        "IDEMPOTENCY-KEY": "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ name: "first" }),
    });
    expect(result).toMatchObject({ status: 200, body: { name: "first" } });
  });

  it("the page can read x-request-id and Idempotent-Replayed", async () => {
    const read = () =>
      page.evaluate(async (url) => {
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "X-API-Key": "k",
            "IDEMPOTENCY-KEY": "7a1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ customer_type: "Person", email: "ada@example.com" }),
        });
        return [response.headers.get("x-request-id"), response.headers.get("idempotent-replayed")];
      }, `${sandbox.url}/customers`);
    const [firstId, firstMark] = await read();
    const [againId, againMark] = await read();
    expect(firstId).toMatch(/^[\da-f-]{36}$/);
    expect(againId).toMatch(/^[\da-f-]{36}$/);
    expect([firstMark, againMark]).toEqual([null, "true"]);
  });

  it("the page can read an error's body", async () => {
    const result = await fetchFromPage(`${mock.url}/items?page_size=1000`, {
      headers: { "X-API-Key": "k" },
    });
    expect(result).toMatchObject({ status: 422, body: { errors: [{ field: "page_size" }] } });
  });

  it("with cors: false, the browser refuses the call", async () => {
    const result = await fetchFromPage(`${mockWithoutCors.url}/items`, {
      headers: { "X-API-Key": "k" },
    });
    expect(result).toEqual({ error: expect.stringContaining("Failed to fetch") });
  });
});
