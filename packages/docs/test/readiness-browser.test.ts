// The readiness page in headless Chromium (Debian's `chromium`), on the built site served as
// `npm start` serves it: the docs server forwarding to a stateful sandbox started here. Under a key
// of its own, a customer is created and a POST is refused; the page reads the report for that key
// and shows the checklist and the operations × statuses grid. Then the static build, where the
// page asks for the sandbox's URL and calls it directly, or, with nothing there, the sandbox in the
// page.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { startTestSandbox, type TestServer } from "@org/payments-testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distDir } from "../src/built-paths.ts";
import { READINESS_PAGE } from "../src/readiness-page.ts";
import { startStaticServer } from "../src/static-server.ts";
import { artifactsFolder } from "./support/artifacts.ts";
import { type ChromiumRun, launchRecordedPage } from "./support/browser-page.ts";

const artifactsDir = artifactsFolder();
const apiKey = `readiness-page-${crypto.randomUUID()}`;

let sandbox: TestServer;
let docs: Awaited<ReturnType<typeof startStaticServer>>;
let staticDocs: Awaited<ReturnType<typeof startStaticServer>>;
let chromiumRun: ChromiumRun;
let page: Page;
const requests: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
  docs = await startStaticServer({ root: distDir, sandbox: sandbox.url });
  staticDocs = await startStaticServer({ root: distDir });
  const post = (body: unknown, key?: string) =>
    fetch(`${sandbox.url}/customers`, {
      method: "POST",
      headers: {
        "X-API-Key": apiKey,
        "Content-Type": "application/json",
        ...(key !== undefined && { "IDEMPOTENCY-KEY": key }),
      },
      body: JSON.stringify(body),
    });
  expect(
    (await post({ customer_type: "Person", email: "ada@example.com" }, crypto.randomUUID())).status,
  ).toBe(200);
  expect((await post({ customer_type: "Person" })).status).toBe(422);
  ({ chromiumRun, page } = await launchRecordedPage(requests, errors));
}, 60_000);

afterAll(async () => {
  await chromiumRun?.close();
  await docs?.close();
  await staticDocs?.close();
  await sandbox?.stop();
});

/** Opens the page at `base`, enters the key (and the sandbox's URL where asked), reads the report. */
async function readReport(base: string, sandboxUrl?: string) {
  await page.goto(new URL(READINESS_PAGE, base).href);
  await page.getByLabel("X-API-Key").fill(apiKey);
  if (sandboxUrl !== undefined) await page.getByLabel("Sandbox URL").fill(sandboxUrl);
  await page.getByRole("button", { name: "Read the report" }).click();
  await page.locator('[data-readiness="done"]').waitFor();
}

describe("the readiness page in Chromium", () => {
  it("shows the checklist and the operations × statuses grid for the console's key", async () => {
    await readReport(docs.url);
    await expect
      .poll(() => page.locator("[data-readiness-verdict]").getAttribute("data-readiness-verdict"))
      .toBe("not-ready");
    // One item per check of the report the sandbox gives for that key (the default profile's).
    const report = await fetch(`${sandbox.url}/_sandbox/readiness`, {
      headers: { "X-API-Key": apiKey },
    }).then((answer) => answer.json() as Promise<{ checks: { id: string }[] }>);
    const checks = page.locator("[data-readiness-checks] li");
    expect(
      await checks.evaluateAll((items) => items.map((item) => item.getAttribute("data-check-id"))),
    ).toEqual(report.checks.map((check) => check.id));
    const person = page.locator('li[data-check-id="person-active"]');
    expect(await person.getAttribute("data-check-status")).toBe("failed");
    expect(await person.textContent()).toContain("they reached SigningsRequired");
    expect(await page.locator('li[data-check-id="quote"]').getAttribute("data-check-status")).toBe(
      "not_run",
    );
    const keys = page.locator('li[data-check-id="idempotency-keys"]');
    expect(await keys.getAttribute("data-check-status")).toBe("failed");
    expect(await keys.textContent()).toContain("POSTs without a key: createCustomer (1)");

    const grid = page.locator("[data-readiness-grid]");
    expect(await grid.locator("tbody tr").count()).toBe(23);
    const created = grid.locator('tr[data-operation="createCustomer"]');
    expect(await created.getAttribute("data-calls")).toBe("2");
    expect(await created.locator('td[data-status="200"]').textContent()).toBe("1");
    expect(await created.locator('td[data-status="422"]').textContent()).toBe("1");
    const quote = grid.locator('tr[data-operation="getAutorampQuote"]');
    expect(await quote.getAttribute("data-calls")).toBe("0");
    await page.screenshot({ path: path.join(artifactsDir, "readiness.png"), fullPage: true });

    // Every request went to the docs server (the sandbox through /sandbox/), nothing elsewhere.
    const origin = new URL(docs.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests).toContain(`${origin}/sandbox/_sandbox/readiness`);
    expect(errors).toEqual([]);
  }, 60_000);

  it("on a static build, asks for the sandbox's URL and reads the report from it", async () => {
    await readReport(staticDocs.url, sandbox.url);
    expect(
      await page.locator('tr[data-operation="createCustomer"]').getAttribute("data-calls"),
    ).toBe("2");
    expect(requests).toContain(`${sandbox.url}/_sandbox/readiness`);
  }, 60_000);

  it("on a static build with no sandbox at the URL, reads the report of the sandbox in the page", async () => {
    await page.goto(new URL(READINESS_PAGE, staticDocs.url).href);
    await page.getByLabel("Sandbox URL").fill(`http://127.0.0.1:${await closedPort()}`);
    await page.getByRole("button", { name: "Read the report" }).click();
    await page.locator('[data-readiness="done"]').waitFor({ timeout: 60_000 });
    // A partner of its own there, with nothing done yet.
    expect(
      await page.locator('tr[data-operation="createCustomer"]').getAttribute("data-calls"),
    ).toBe("0");
    expect(await page.locator('[data-in-page-sandbox="in-page"]').textContent()).toContain(
      "sandbox running in your browser",
    );
  }, 90_000);

  it("says what went wrong when what answers at the URL is no sandbox", async () => {
    await page.goto(new URL(READINESS_PAGE, staticDocs.url).href);
    // The docs' own static server: it answers, with a 404.
    await page.getByLabel("Sandbox URL").fill(staticDocs.url);
    await page.getByRole("button", { name: "Read the report" }).click();
    await page.locator('[data-readiness="failed"]').waitFor();
    expect(await page.locator("[data-readiness]").textContent()).toContain("404");

    // A key the browser cannot send (a typographic hyphen pasted in): named, without its value.
    const unsendable = "sandbox\u2011key";
    await page.getByLabel("X-API-Key").fill(unsendable);
    await page.getByRole("button", { name: "Read the report" }).click();
    await page
      .locator('[data-readiness="failed"]', { hasText: "X-API-Key — latin1" })
      .waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-readiness]").textContent()).not.toContain(unsendable);
  }, 60_000);
});

/** A port that was free a moment ago, and is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
