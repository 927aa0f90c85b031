#!/usr/bin/env node
// TypeScript 7's compiler as rolldown-plugin-dts runs it (scripts/declarations.ts), once per build
// rather than once per output: the plugin compiles the whole tsconfig into a temp --outDir for each
// format (ESM, CommonJS) and each tsdown config, four identical compilations for the mock. Within
// one `build` (scripts/build-library.ts names a folder in PAYMENTS_TSGO_SHARED), the first run with
// given arguments compiles into that folder; the others wait for it and copy what it wrote into
// their own --outDir. Without the variable it is the compiler itself.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const shared = process.env.PAYMENTS_TSGO_SHARED;
const outAt = args.indexOf("--outDir");

/** Waiting for another run's compilation gives up after this long (it takes seconds). */
const WAIT_MS = 300_000;

async function main(): Promise<number> {
  if (shared === undefined || outAt === -1 || args[outAt + 1] === undefined) {
    return (await compiler())(args);
  }
  const outDir = args[outAt + 1] as string;
  const rest = [...args.slice(0, outAt), ...args.slice(outAt + 2)];
  const key = createHash("sha256").update(JSON.stringify(rest)).digest("hex").slice(0, 16);
  const folder = join(shared, key);
  const exitFile = join(shared, `${key}.exit`);
  let claimed = true;
  try {
    mkdirSync(`${folder}.lock`);
  } catch {
    claimed = false;
  }
  if (claimed) {
    const status = (await compiler())([...rest, "--outDir", folder]);
    writeFileSync(exitFile, String(status));
  } else {
    const deadline = Date.now() + WAIT_MS;
    while (!existsSync(exitFile)) {
      if (Date.now() > deadline) {
        console.error(`tsgo-once: no compilation of ${rest.join(" ")} ended in ${WAIT_MS} ms`);
        return 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const status = Number(readFileSync(exitFile, "utf8"));
  if (status === 0 && existsSync(folder)) cpSync(folder, outDir, { recursive: true });
  return status;
}

/**
 * Runs the compiler with `compilerArgs`: the `typescript` package's native binary, or the one
 * PAYMENTS_TSGO_PATH names (the tests' stand-in).
 */
async function compiler(): Promise<(compilerArgs: string[]) => number> {
  let path = process.env.PAYMENTS_TSGO_PATH;
  if (path === undefined) {
    const { default: getExePath }: { default: () => string } = await import(
      new URL("lib/getExePath.js", import.meta.resolve("typescript/package.json")).href
    );
    path = getExePath();
  }
  const compilerPath = path;
  return (compilerArgs) => spawnSync(compilerPath, compilerArgs, { stdio: "inherit" }).status ?? 1;
}

process.exitCode = await main();
