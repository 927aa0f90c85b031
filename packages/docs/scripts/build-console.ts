// Bundles the console (console/*.ts, plain DOM, no framework) into one script for the page, with
// the operations it needs from the spec passed in, and copies its stylesheet.
import { copyFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
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
  buildSync({
    stdin: {
      contents: [
        'import { startConsoles } from "./main.ts";',
        `startConsoles(${JSON.stringify(operations)}, ${JSON.stringify(options)});`,
      ].join("\n"),
      resolveDir: consoleDir,
      sourcefile: "console-entry.ts",
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    outfile: path.join(siteDir, script),
    logLevel: "silent",
  });
  copyFileSync(path.join(consoleDir, "console.css"), path.join(siteDir, CONSOLE_STYLES));
}
