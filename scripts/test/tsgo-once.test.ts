// tsgo-once.ts: the outputs of one build share one compilation of their declarations. A stand-in
// compiler (PAYMENTS_TSGO_PATH) records each run and writes one file into its --outDir.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";

const wrapper = path.resolve(import.meta.dirname, "../tsgo-once.ts");
const run = promisify(execFile);

let work: string;
let compiler: string;
let log: string;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), "payments-tsgo-once-"));
  compiler = path.join(work, "compiler.mjs");
  log = path.join(work, "runs.log");
  writeFileSync(
    compiler,
    `#!/usr/bin/env node
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + "\\n");
const out = args[args.indexOf("--outDir") + 1];
mkdirSync(out, { recursive: true });
writeFileSync(out + "/index.d.ts", "export declare const made: " + JSON.stringify(args[1]) + ";");
process.exit(args.includes("--fail") ? 2 : 0);
`,
  );
  chmodSync(compiler, 0o755);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** The wrapper, as the plugin runs it: `args` and an --outDir of its own. */
function compile(args: string[], outDir: string, shared: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, PAYMENTS_TSGO_PATH: compiler };
  if (shared === undefined) delete env.PAYMENTS_TSGO_SHARED;
  else env.PAYMENTS_TSGO_SHARED = shared;
  return run(wrapper, [...args, "--outDir", path.join(work, outDir)], { env }).then(
    () => 0,
    (error: { code: number }) => error.code,
  );
}

const runs = () => readFileSync(log, "utf8").trim().split("\n");

it("compiles once for the outputs of a build that ask the same, and gives each its files", async () => {
  const shared = mkdtempSync(path.join(work, "shared-"));
  const args = ["-p", "tsconfig.a.json", "--declaration"];
  const codes = await Promise.all(
    ["esm", "cjs", "browser"].map((out) => compile(args, out, shared)),
  );
  expect(codes).toEqual([0, 0, 0]);
  expect(runs()).toHaveLength(1);
  for (const out of ["esm", "cjs", "browser"]) {
    expect(readdirSync(path.join(work, out))).toEqual(["index.d.ts"]);
  }
  // Other arguments are another compilation.
  expect(await compile(["-p", "tsconfig.b.json", "--declaration"], "other", shared)).toBe(0);
  expect(runs()).toHaveLength(2);
  expect(readFileSync(path.join(work, "other/index.d.ts"), "utf8")).toContain("tsconfig.b.json");
});

it("gives every output the compiler's failure, and copies nothing", async () => {
  const shared = mkdtempSync(path.join(work, "shared-"));
  const args = ["-p", "tsconfig.a.json", "--fail"];
  const codes = await Promise.all(["esm", "cjs"].map((out) => compile(args, out, shared)));
  expect(codes).toEqual([2, 2]);
  expect(runs()).toHaveLength(1);
  expect(readdirSync(work).filter((name) => name === "esm" || name === "cjs")).toEqual([]);
});

it("is the compiler itself outside a build", async () => {
  expect(await compile(["-p", "tsconfig.a.json"], "alone", undefined)).toBe(0);
  expect(await compile(["-p", "tsconfig.a.json"], "again", undefined)).toBe(0);
  expect(runs()).toHaveLength(2);
  expect(runs()[0]).toContain(path.join(work, "alone"));
});
