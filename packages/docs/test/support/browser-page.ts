// Headless Chromium with one page for a browser test, recording what the page asks for and what
// goes wrong in it, so that a test can assert the page stays on its own origin and runs clean.
import { launchChromium } from "@org/payments-testing";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export type ChromiumRun = Awaited<ReturnType<typeof launchChromium<BrowserContext>>>;

/** Launches Chromium; every URL the page requests goes to `requests`, every error to `errors`. */
export async function launchRecordedPage(
  requests: string[],
  errors: string[],
): Promise<{ chromiumRun: ChromiumRun; page: Page }> {
  const chromiumRun = await launchChromium(chromium, { viewport: { width: 1400, height: 900 } });
  const page = chromiumRun.context.pages()[0] ?? (await chromiumRun.context.newPage());
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
