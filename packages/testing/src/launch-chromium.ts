// Launches the machine's Chromium (Debian's `chromium`, which scripts/ensure-chromium.ts installs)
// headless for a browser test. Tests pass in playwright-core's `chromium`, which resolves from their
// own package; browsers are never downloaded.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  // Renderer processes are shared where Chromium may share them (pages of one site, 127.0.0.1,
  // in one browser context), rather than one started per tab and per new document: the docs'
  // browser tests start 11-13 instead of 36-39, a few CPU-seconds less. Browser contexts and
  // sites still never share a process, and each page keeps its own document and script.
  "--renderer-process-limit=1",
];

/** The part of playwright-core's `BrowserType` this needs, so that the caller's copy is used. */
type ChromiumType<Context> = {
  launchPersistentContext(userDataDir: string, options: object): Promise<Context>;
};

function assertChromium(): void {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: run \`npm test\` from the repo root (it installs it), or set CHROMIUM_PATH`,
    );
  }
}

/**
 * Starts the machine's Chromium headless as a server (playwright-core's `launchServer`) that the
 * tests of a run connect to (`chromium.connect`), each in a browser context of its own: a fresh
 * profile, without a Chromium started for each test file. The caller closes it.
 */
export async function launchChromiumServer<Server extends { close(): Promise<void> }>(chromium: {
  launchServer(options: object): Promise<Server>;
}): Promise<Server> {
  assertChromium();
  return chromium.launchServer({ executablePath: chromiumPath, headless: true, args: ARGS });
}

export async function launchChromium<Context extends { close(): Promise<void> }>(
  chromium: ChromiumType<Context>,
  options: object = {},
): Promise<{ context: Context; close(): Promise<void> }> {
  assertChromium();
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), "chromium-test-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    ...options,
    executablePath: chromiumPath,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
