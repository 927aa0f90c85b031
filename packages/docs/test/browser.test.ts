// Opens the built site in headless Chromium (Debian's `chromium`, as scripts/ensure-chromium.ts
// installs it) served from 127.0.0.1, and checks what a reader sees and what the page fetches.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtSamplesDir, distDir } from "../src/built-paths.ts";
import { GUIDES } from "../src/guides.ts";
import { TEST_MODE_PAGE } from "../src/pages.ts";
import { LIFECYCLES } from "../src/sandbox-data.ts";
import { startStaticServer } from "../src/static-server.ts";
import { artifactsFolder } from "./support/artifacts.ts";
import { type ChromiumRun, openBrowserContext } from "./support/browser-page.ts";

const artifactsDir = artifactsFolder();

let server: Awaited<ReturnType<typeof startStaticServer>>;
let chromiumRun: ChromiumRun;
let context: BrowserContext;
let page: Page;
const requests: string[] = [];
const consoleErrors: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startStaticServer({ root: distDir });
  chromiumRun = await openBrowserContext();
  context = chromiumRun.context;
  context.on("request", (request) => requests.push(request.url()));
  page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(server.url, { waitUntil: "load" });
  // Redoc shows its logo only once React has hydrated the page, so this waits for the app.
  await page.locator('img[alt="redocly logo"]').waitFor();
}, 60_000);

afterAll(async () => {
  await chromiumRun?.close();
  await server?.close();
});

describe("the docs site in Chromium", () => {
  it("shows the overview without literal backticks or placeholder hosts", async () => {
    await showOverview();
    await page
      .getByRole("heading", { name: /Partner Payments API/ })
      .first()
      .waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees, not script text
    const text = await page.locator("body").innerText();
    expect(text).not.toContain("`");
    const hosts = await page
      .locator("a[href^='http']")
      .evaluateAll((anchors) => anchors.map((a) => new URL(a.getAttribute("href") ?? "").host));
    expect(
      [...text.matchAll(/\b[\w.-]*example\.(?:com|org|net)\/[\w/.-]*/g)].map((m) => m[0]),
    ).toEqual([]);
    expect(hosts.filter((host) => /(^|\.)example\.(com|org|net)$/.test(host))).toEqual([]);
  }, 60_000);

  it("shows the brand: the logo, the brand colour, and the API's title on one line", async () => {
    await showOverview();
    const logo = page.locator('img[alt="Partner Payments API logo"]');
    await logo.waitFor();
    expect(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const brand = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--color-primary-base").trim(),
    );
    expect(
      await page.evaluate((color) => {
        const probe = document.createElement("span");
        probe.style.color = color;
        document.body.append(probe);
        const rgb = getComputedStyle(probe).color;
        probe.remove();
        return rgb;
      }, brand),
    ).toBe("rgb(15, 118, 110)");
    const title = page.getByRole("heading", { level: 1, name: /Partner Payments API/ }).first();
    const { height, lineHeight } = await title.evaluate((h1) => ({
      height: h1.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(h1).lineHeight),
    }));
    expect(height).toBeLessThan(lineHeight * 1.5);
  }, 60_000);

  it("shows an operation's TypeScript and curl samples", async () => {
    const operationId = "createCustomer";
    await page.goto(`${server.url}#/customers/${operationId.toLowerCase()}`);
    await page.getByRole("heading", { name: "Create a customer" }).first().waitFor();
    const panel = page.locator(".panel-request-samples").first();
    const code = panel.locator('pre[data-testid="source-code"]');

    await pickSample(panel, "curl");
    await expect.poll(() => code.textContent()).toContain('curl -X POST "${PAYMENTS_BASE_URL:-');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    expect(await code.textContent()).toContain('-H "X-API-Key: ${PAYMENTS_API_KEY:-sandbox-key}"');

    await pickSample(panel, "TypeScript");
    const source = readFileSync(path.join(builtSamplesDir, `${operationId}.ts`), "utf8").trim();
    await expect.poll(async () => (await code.textContent())?.trim()).toBe(source);

    await page.screenshot({ path: path.join(artifactsDir, "docs-create-customer.png") });
  }, 60_000);

  it("wraps long lines of a code sample instead of cutting them, at 1400 px", async () => {
    await page.goto(`${server.url}#/exchange-rates/getexchangerate`);
    await page.getByRole("heading", { name: "Get an exchange rate" }).first().waitFor();
    const code = page.locator('.panel-request-samples pre[data-testid="source-code"]').first();
    await expect.poll(() => code.textContent()).toContain("PAYMENTS_BASE_URL");
    const { scrollWidth, clientWidth } = await code.evaluate((pre) => ({
      scrollWidth: pre.scrollWidth,
      clientWidth: pre.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }, 60_000);

  it("leads from the overview's Test mode section to the test-mode reference and the guides", async () => {
    await page.goto(`${server.url}#/section/test-mode`);
    await page.getByRole("heading", { name: "Test mode" }).first().waitFor();
    expect(
      await page.locator(".menu-content").getByText("Test mode", { exact: true }).count(),
    ).toBe(1);
    expect(await page.locator(`a[href="${TEST_MODE_PAGE}"]`).count()).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Quickstart with curl" }).first().click();
    await page.waitForURL(/guides\/quickstart\.html$/);
    await page.getByRole("heading", { level: 1, name: "Quickstart with curl" }).waitFor();
  }, 60_000);

  it("shows each guide, and the lifecycles' pictures drawn at build", async () => {
    // The lifecycles guide last, so that its page is still loaded for its pictures.
    const lifecyclesLast = [...GUIDES].sort(
      (a, b) => Number(a.slug === "lifecycles") - Number(b.slug === "lifecycles"),
    );
    for (const guide of lifecyclesLast) {
      await show(`${server.url}guides/${guide.slug}.html`);
      await page.getByRole("heading", { level: 1, name: guide.title }).waitFor();
      const nav = page.getByRole("navigation", { name: "Test mode" });
      expect(await nav.locator('a[aria-current="page"]').textContent()).toBe(guide.title);
    }
    await show(`${server.url}guides/lifecycles.html`);
    const pictures = page.locator("figure.lifecycle img");
    expect(await pictures.count()).toBe(LIFECYCLES.length);
    for (const picture of await pictures.all()) {
      await picture.scrollIntoViewIfNeeded();
      await expect
        .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(100);
    }
    await page.locator('figure[data-lifecycle="autoramps"]').screenshot({
      path: path.join(artifactsDir, "guide-autoramp-lifecycle.png"),
    });
  }, 60_000);

  it("logs no errors", () => {
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("requests nothing from any origin but its own", () => {
    const origin = new URL(server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });
});

/**
 * The overview, as the site opens: the page beforeAll loaded, loaded again only when a test left it
 * (each load renders the whole reference again).
 */
async function showOverview() {
  await show(server.url);
}

/** Loads `url` unless the page shows it already (a guide the previous test went to, say). */
async function show(url: string) {
  if (page.url() !== url) await page.goto(url);
}

/** Chooses a language in the request samples panel's language menu. */
async function pickSample(panel: ReturnType<Page["locator"]>, language: string) {
  await panel.getByRole("button", { name: /^(TypeScript|curl)$/ }).click();
  await page.getByRole("menuitem", { name: language, exact: true }).click();
}
