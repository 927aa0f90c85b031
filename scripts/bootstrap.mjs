#!/usr/bin/env node
// Entry point behind `npm start`, `npm test`, `npm run dev` and the root scripts that run turbo
// (Node built-ins only).
//
// Design:
// - `test` and `start`, run by npm (fresh machine, maybe no pnpm): ensure pnpm,
//   `pnpm install --frozen-lockfile`, then run the task (`test` -> `pnpm run test:all`,
//   `start` -> build, then scripts/serve.mjs). Run by pnpm (npm_config_user_agent starts with
//   "pnpm/"), the workspace is already set up, so they skip straight to the task. Nothing here
//   ever calls the `test`/`start` scripts again, so there is no recursion.
// - `dev`: build, then scripts/serve.mjs --watch. `run <command>`: the command, in a shell.
// - pnpm, when missing (or another version), is installed locally with npm into <repo>/.tools
//   (gitignored, no root needed); <repo>/.tools/node_modules/.bin is prepended to PATH for
//   every child process, so turbo (which spawns `pnpm` by name) finds it too.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const PNPM_VERSION = String(pkg.packageManager ?? "pnpm@10.34.9")
  .replace(/^pnpm@/, "")
  .split("+")[0];
const MIN_NODE = [20, 19];
const isWindows = process.platform === "win32";

const [mode, ...extraArgs] = process.argv.slice(2);
const underPnpm = (process.env.npm_config_user_agent ?? "").startsWith("pnpm/");

const step = (msg) => console.log(`\u25b8 ${msg}`);
const fail = (msg, code = 1) => {
  console.error(`\u2716 ${msg}`);
  process.exit(code || 1);
};

const localBin = path.join(root, ".tools", "node_modules", ".bin");
const env = { ...process.env };
const pathKey = Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
env[pathKey] = [localBin, env[pathKey]].filter(Boolean).join(path.delimiter);
// Keep npm's and pnpm's "update available" banners out of the output (the repo's .npmrc says so
// too, but the npm that installs pnpm runs with --prefix .tools and so does not read it).
env.npm_config_update_notifier = "false";
// Turbo phones home by default; nothing in this toolkit sends telemetry.
env.TURBO_TELEMETRY_DISABLED ??= "1";

/** Run a command with inherited stdio; exit with a clear message if it fails. */
function run(cmd, args, { what, shell = isWindows } = {}) {
  const res = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit", shell });
  if (res.error) fail(`${what ?? cmd}: could not run \`${cmd}\` (${res.error.message})`);
  if (res.status !== 0) {
    const how = res.signal ? `signal ${res.signal}` : `exit code ${res.status}`;
    fail(`${what ?? cmd} failed (${how}): ${[cmd, ...args].join(" ")}`, res.status ?? 1);
  }
}

/**
 * Runs the whole suite, passing its output through as it comes, and closes with one line of
 * vitest totals over every package (turbo replays a cached task's output, so those count too).
 */
function runSuite() {
  const color = process.stdout.isTTY ? { FORCE_COLOR: env.FORCE_COLOR ?? "1" } : {};
  const child = spawn("pnpm", ["run", "test:all", ...extraArgs], {
    cwd: root,
    env: { ...env, ...color },
    stdio: ["inherit", "pipe", "inherit"],
    shell: isWindows,
  });
  const totals = { passed: 0, failed: 0 };
  createInterface({ input: child.stdout }).on("line", (line) => {
    process.stdout.write(`${line}\n`);
    const plain = stripVTControlCharacters(line);
    if (!/\bTests\s+\d/.test(plain)) return;
    totals.passed += Number(plain.match(/(\d+) passed/)?.[1] ?? 0);
    totals.failed += Number(plain.match(/(\d+) failed/)?.[1] ?? 0);
  });
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      const summary = `Tests: ${totals.passed} passed, ${totals.failed} failed`;
      if (code !== 0) {
        console.log(summary);
        fail(`test suite failed (${signal ?? `exit code ${code}`}): pnpm run test:all`, code ?? 1);
      }
      step("all checks passed");
      // Last, alone on its line: the summary that CI and people read first.
      console.log(summary);
      resolve();
    });
  });
}

/** `pnpm --version`: the version, or null with what pnpm said instead. */
function pnpmVersion() {
  const res = spawnSync("pnpm", ["--version"], {
    cwd: root,
    env,
    encoding: "utf8",
    shell: isWindows,
  });
  if (res.status === 0) return { version: res.stdout.trim(), said: "" };
  return { version: null, said: (res.error?.message ?? `${res.stderr}${res.stdout}`).trim() };
}

function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    fail(`Node ${MIN_NODE.join(".")}+ is required; this is Node ${process.versions.node}`);
  }
}

function ensurePnpm() {
  const { version: found } = pnpmVersion();
  if (found === PNPM_VERSION) {
    step(`using pnpm ${found}`);
    return;
  }
  step(
    `installing pnpm ${PNPM_VERSION} locally\u2026 (${found ? `found pnpm ${found}` : "pnpm not found"}; into .tools/)`,
  );
  // Prefer the npm that launched us; fall back to `npm` on PATH.
  const npmCli = process.env.npm_execpath;
  const useCli = npmCli && /npm-cli\.js$/.test(npmCli) && existsSync(npmCli);
  const [cmd, pre] = useCli ? [process.execPath, [npmCli]] : ["npm", []];
  run(
    cmd,
    [
      ...pre,
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--loglevel=error",
      "--prefix",
      path.join(root, ".tools"),
      `pnpm@${PNPM_VERSION}`,
    ],
    { what: `installing pnpm ${PNPM_VERSION}` },
  );
  const { version: now, said } = pnpmVersion();
  if (now !== PNPM_VERSION) {
    fail(
      `pnpm ${PNPM_VERSION} was installed into .tools/ but \`pnpm --version\` gives ${now ?? `an error: ${said}`}`,
    );
  }
}

function setup() {
  checkNode();
  ensurePnpm();
  step("installing dependencies (pnpm install --frozen-lockfile)\u2026");
  run("pnpm", ["install", "--frozen-lockfile", "--config.confirmModulesPurge=false"], {
    what: "pnpm install --frozen-lockfile",
  });
}

function build() {
  step("building (turbo run build; a package's output shows only if it fails)\u2026");
  run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only"], { what: "build" });
}

/** @param {string[]} args */
function serve(args) {
  step("starting servers (scripts/serve.mjs)\u2026");
  const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), ...args], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => child.kill(sig));
  }
  child.on("exit", (code, signal) => {
    if (code !== 0 && !signal) fail(`serve exited with code ${code}`, code ?? 1);
    process.exit(code ?? 0);
  });
}

switch (mode) {
  case "test":
    if (!underPnpm) setup();
    // The docs browser test drives Debian's chromium: install it when missing (root + apt) or say how.
    run(process.execPath, [path.join(root, "scripts", "ensure-chromium.mjs")], {
      what: "Chromium for the docs browser test",
    });
    step("running the whole suite (pnpm run test:all)\u2026");
    await runSuite();
    break;
  case "start":
    if (!underPnpm) setup();
    build();
    serve(extraArgs);
    break;
  case "dev":
    build();
    serve(["--watch", ...extraArgs]);
    break;
  case "run": {
    // The root scripts that run turbo (`npm run build`, `npm run bench`, …): turbo starts each
    // package's task with pnpm, so the pnpm that `npm start` or `npm test` put in .tools/ must be
    // on PATH even for a user who has none of their own.
    if (!pnpmVersion().version) {
      fail(
        "pnpm not found: run `npm test` or `npm start` once first (they install it into .tools/)",
      );
    }
    const command = extraArgs.join(" ");
    run(command, [], { what: command, shell: true });
    break;
  }
  default:
    fail(
      `usage: node scripts/bootstrap.mjs <test|start|dev|run> [args...] (got ${mode ?? "nothing"})`,
      2,
    );
}
