// Bundles the console (console/*.ts, plain DOM, no framework) into one script for the page, with
// the operations it needs from the spec passed in, and copies its stylesheet.
import { copyFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { SANDBOX_WORKER } from "../console/in-page-sandbox.ts";
import { IN_PAGE_SCRIPT } from "../console/lazy-in-page-sandbox.ts";
import type { ConsoleOperation } from "../console/operation.ts";

export const CONSOLE_SCRIPT = "assets/console.js";
/** The test-mode reference's consoles: the same code, with the test-mode routes. */
export const TEST_MODE_CONSOLE_SCRIPT = "assets/test-mode-console.js";
const CONSOLE_STYLES = "assets/console.css";

const consoleDir = path.resolve(import.meta.dirname, "../console");

/** Writes the console's script (`script`) and stylesheet into the site folder `siteDir`. */
export function buildConsole(
  siteDir: string,
  operations: ConsoleOperation[],
  options: { apiKey: string },
  script = CONSOLE_SCRIPT,
) {
  bundleConsoleEntry(
    [
      'import { startConsoles } from "./main.ts";',
      `startConsoles(${JSON.stringify(operations)}, ${JSON.stringify(options)});`,
    ],
    "console-entry.ts",
    path.join(siteDir, script),
  );
  copyFileSync(path.join(consoleDir, "console.css"), path.join(siteDir, CONSOLE_STYLES));
}

/** Bundles a page script whose entry (`lines`, named `sourcefile`) imports from console/. */
export function bundleConsoleEntry(lines: string[], sourcefile: string, outfile: string) {
  buildSync({
    stdin: {
      contents: lines.join("\n"),
      resolveDir: consoleDir,
      sourcefile,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    outfile,
    logLevel: "silent",
  });
}

/**
 * Writes the in-page sandbox: its page side (console/in-page-sandbox.ts) beside the consoles'
 * scripts, which import it at their first send, and its service worker (console/sandbox-worker.ts
 * with @org/payments-mock's browser build) at the site's root, one classic script, which every
 * browser with service workers runs. A page registers the worker only when no sandbox answers at
 * its console's URL.
 */
export function buildInPageSandbox(siteDir: string) {
  const common = {
    bundle: true,
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "error",
  } as const;
  buildSync({
    ...common,
    entryPoints: [path.join(consoleDir, "in-page-sandbox.ts")],
    format: "esm",
    outfile: path.join(siteDir, "assets", IN_PAGE_SCRIPT),
  });
  buildSync({
    ...common,
    entryPoints: [path.join(consoleDir, "sandbox-worker.ts")],
    format: "iife",
    outfile: path.join(siteDir, SANDBOX_WORKER),
  });
}
