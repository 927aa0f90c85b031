// sandboxHandlers with MSW's setupWorker in Chromium, as a front end's page runs it: a page served
// from 127.0.0.1, bundled by esbuild as a browser app is (the package's handlers by the browser
// condition, msw's browser build and its mockServiceWorker.js from the installed msw, nothing from
// another host), creates the project's client on the page's fetch, onboards a customer to Active
// and funds an onramp over a day, its webhook's deliveries going to the handlers' callback. Then
// the same script through Node's handlers (setupServer): the same answers, ids and times aside.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { launchChromium } from "@org/payments-testing";
import { build } from "esbuild";
import { setupServer } from "msw/node";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxHandlers, type WebhookDelivery } from "../../src/msw/index.js";
import { normalised, onboardingScript, type ScriptResult } from "./support/onboarding-script.js";

const BASE_URL = "https://payments.api.test";

/** The page's files, by their path on the server. */
const TYPES: Record<string, string> = {
  "/": "text/html",
  "/app.js": "text/javascript",
  "/mockServiceWorker.js": "text/javascript",
};

let dir: string;
let server: Server;
let pageUrl: string;
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "payments-worker-"));
  await build({
    entryPoints: [fileURLToPath(new URL("support/worker-page.ts", import.meta.url))],
    outfile: path.join(dir, "app.js"),
    bundle: true,
    platform: "browser",
    format: "esm",
    logLevel: "error",
  });
  copyFileSync(
    createRequire(import.meta.url).resolve("msw/mockServiceWorker.js"),
    path.join(dir, "mockServiceWorker.js"),
  );
  writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><meta charset="utf-8"><title>sandbox</title><script type="module" src="/app.js"></script>\n',
  );
  server = createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://page").pathname;
    const type = TYPES[pathname];
    if (type === undefined) {
      response.writeHead(404).end();
      return;
    }
    const file = pathname === "/" ? "index.html" : pathname.slice(1);
    response.writeHead(200, { "content-type": type }).end(readFileSync(path.join(dir, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium(chromium);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

let inPage: Promise<ScriptResult> | undefined;

/** The script run once in a page of Chromium (both tests read it). */
function runInPage(): Promise<ScriptResult> {
  inPage ??= (async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      await page.goto(pageUrl);
      await page.waitForFunction(() => typeof window.runScript === "function");
      return await page.evaluate((baseUrl) => window.runScript(baseUrl), BASE_URL);
    } finally {
      await page.close();
      expect(errors).toEqual([]);
    }
  })();
  return inPage;
}

describe("sandboxHandlers with setupWorker in Chromium", () => {
  it("onboards a customer to Active and settles a funded onramp over a day, the client on the page's fetch", async () => {
    const { customerStatus, transactionState, deliveries, transcript } = await runInPage();
    expect(customerStatus).toBe("Active");
    expect(transactionState).toBe("Completed");
    const customerEvents = deliveries.filter((delivery) => delivery.topic === "CustomerStatus");
    expect(customerEvents.map((delivery) => delivery.status)).toEqual([
      "IdentificationRequired",
      "Active",
    ]);
    expect(deliveries.filter((delivery) => delivery.topic === "TransactionStatus").at(-1)).toEqual({
      topic: "TransactionStatus",
      status: "Completed",
    });
    // The refused body and the rehearsed fault reached the page as the API's answers.
    const statuses = transcript.flatMap((entry) =>
      entry.status === undefined ? [] : [entry.status],
    );
    expect(statuses).toEqual(expect.arrayContaining([422, 503]));
  });

  it("answers the script as Node's handlers do, ids and times aside", async () => {
    const delivered: WebhookDelivery[] = [];
    const handlers = sandboxHandlers({
      baseUrl: BASE_URL,
      spec: specPath,
      onDelivery: (delivery) => {
        delivered.push(delivery);
      },
    });
    const node = setupServer(...handlers);
    node.listen({ onUnhandledFrame: "error" });
    let inNode: ScriptResult;
    try {
      inNode = await onboardingScript({
        fetch: (request) => fetch(request),
        baseUrl: BASE_URL,
        partner: handlers.newPartner(),
        delivered,
      });
    } finally {
      node.close();
      await handlers.close();
    }
    const { transcript } = await runInPage();
    expect(transcript.length).toBeGreaterThan(15);
    expect(normalised(transcript)).toEqual(normalised(inNode.transcript));
  });
});
