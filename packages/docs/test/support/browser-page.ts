// Headless Chromium with one page for a browser test, recording what the page asks for and what
// goes wrong in it, so that a test can assert the page stays on its own origin and runs clean. The
// run's one Chromium (support/chromium-server.ts) gives each caller a browser context of its own:
// a fresh profile, with nothing of another file's pages, storage, cache or service workers.
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

export interface ChromiumRun {
  context: BrowserContext;
  /** Closes the context and leaves the run's Chromium to the others. */
  close(): Promise<void>;
}

/** A fresh browser context of the run's Chromium, with a page of 1400 × 900. */
export async function openBrowserContext(): Promise<ChromiumRun> {
  const server = inject("chromiumServer");
  if ("missing" in server) throw new Error(server.missing);
  const browser: Browser = await chromium.connect(server.wsEndpoint);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  return { context, close: () => browser.close() };
}

/** A fresh browser context with one page; every URL the page requests goes to `requests`, every error to `errors`. */
export async function launchRecordedPage(
  requests: string[],
  errors: string[],
): Promise<{ chromiumRun: ChromiumRun; page: Page }> {
  const chromiumRun = await openBrowserContext();
  const page = await chromiumRun.context.newPage();
  recordPage(page, requests, errors);
  return { chromiumRun, page };
}

/** Records every URL `page` requests in `requests`, every error in it in `errors`. */
export function recordPage(page: Page, requests: string[], errors: string[]): void {
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
}
