// Global setup of the docs tests: one headless Chromium for the whole run, which each browser test
// file connects to and uses in a browser context of its own (support/browser-page.ts): a fresh
// profile per file, without a Chromium started per file. Where Chromium is missing, only the
// browser tests fail, saying so.
import { launchChromiumServer } from "@org/payments-testing";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's Chromium: its endpoint for `chromium.connect`, or why there is none. */
    chromiumServer: { wsEndpoint: string } | { missing: string };
  }
}

export default async function setup(project: TestProject) {
  try {
    const server = await launchChromiumServer(chromium);
    project.provide("chromiumServer", { wsEndpoint: server.wsEndpoint() });
    return () => server.close();
  } catch (error) {
    project.provide("chromiumServer", { missing: (error as Error).message });
    return undefined;
  }
}
