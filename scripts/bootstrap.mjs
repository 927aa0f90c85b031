#!/usr/bin/env node
// Entry point behind `npm run setup`, `npm start`, `npm test`, `npm run dev` and the root scripts
// that run the toolchain. It is the one JavaScript file of the repository's tooling, because it
// must run on whatever Node the machine has (Node built-ins only, no syntax newer than Node 18).
//
// The toolchain: the Node pinned in .node-version (type stripping runs our TypeScript; vitest 5,
// tsdown, Prism and changesets need Node 22+ or 24) and the pnpm pinned in package.json.
// - When the machine's Node is older than the pinned one, that Node comes from the npm registry
//   (the `node` package) into <repo>/.tools (gitignored, no root needed); pnpm too, unless the
//   pinned version is already on PATH. The install goes once into the user's cache (a folder per
//   set of versions, see toolchainCache) and .tools links to it: every clone of the same versions
//   shares it, where each fresh clone would unpack Node's 100 MB again (8 s). <repo>/.tools/node_modules/.bin, then the root's
//   node_modules/.bin, go first on PATH for every child process, so turbo, pnpm, vitest, the mock
//   and the docs all run on the toolchain's Node.
// - `setup`: the toolchain and `pnpm install --frozen-lockfile`, nothing else.
// - `test` and `start`, run by npm: setup, then the task (`test` -> `pnpm run test:all`,
//   `start` -> build, then packages/docs/scripts/serve-all.ts). Run by pnpm (npm_config_user_agent starts with
//   "pnpm/"), the workspace is already installed, so they skip the install. Nothing here calls the
//   `test`/`start` scripts again, so there is no recursion.
// - `dev`: build, then packages/docs/scripts/serve-all.ts --watch. `run <command>`: the command, in a shell, on the
//   toolchain.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const PNPM_VERSION = String(pkg.packageManager)
  .replace(/^pnpm@/, "")
  .split("+")[0];
const NODE_VERSION = readFileSync(path.join(root, ".node-version"), "utf8").trim();
const isWindows = process.platform === "win32";

const [mode, ...extraArgs] = process.argv.slice(2);
const underPnpm = (process.env.npm_config_user_agent ?? "").startsWith("pnpm/");

const step = (msg) => console.log(`\u25b8 ${msg}`);
const fail = (msg, code = 1) => {
  console.error(`\u2716 ${msg}`);
  process.exit(code || 1);
};

const tools = path.join(root, ".tools");
const toolsBin = path.join(tools, "node_modules", ".bin");
const env = { ...process.env };
const pathKey = Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
env[pathKey] = [toolsBin, path.join(root, "node_modules", ".bin"), env[pathKey]]
  .filter(Boolean)
  .join(path.delimiter);
// Keep npm's and pnpm's "update available" banners out of the output (the repo's .npmrc says so
// too, but the npm that installs into .tools runs with --prefix and so does not read it).
env.npm_config_update_notifier = "false";
// Turbo phones home by default; nothing in this toolkit sends telemetry.
env.TURBO_TELEMETRY_DISABLED ??= "1";
// Node's compile cache (V8's code for each module it loads, keyed by the module's source and the
// Node version) for every process started from here: the suite starts Node hundreds of times
// (pnpm for each turbo task, vitest, the CLIs under test, TypeScript's compiler), each compiling
// the same modules again without it. Under node_modules, so that a fresh install starts empty.
env.NODE_COMPILE_CACHE ??= path.join(root, "node_modules", ".cache", "node-compile-cache");

/** Run a command with inherited stdio; exit with a clear message if it fails. */
function run(cmd, args, { what, shell = isWindows } = {}) {
  const res = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit", shell });
  if (res.error) fail(`${what ?? cmd}: could not run \`${cmd}\` (${res.error.message})`);
  if (res.status !== 0) {
    const how = res.signal ? `signal ${res.signal}` : `exit code ${res.status}`;
    fail(`${what ?? cmd} failed (${how}): ${[cmd, ...args].join(" ")}`, res.status ?? 1);
  }
}

/** `<cmd> --version` on the toolchain's PATH: the version, or null. */
function versionOf(cmd) {
  const res = spawnSync(cmd, ["--version"], { cwd: root, env, encoding: "utf8", shell: isWindows });
  return res.status === 0 ? res.stdout.trim().replace(/^v/, "") : null;
}

/** -1, 0 or 1 as version a is older than, the same as or newer than version b. */
function compareVersions(a, b) {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/**
 * Where installed toolchains are kept for every clone of this user: a folder per set of versions.
 * Removing it is safe; the next setup installs again.
 */
function toolchainCache() {
  const base =
    process.env.XDG_CACHE_HOME ||
    (isWindows && process.env.LOCALAPPDATA) ||
    path.join(os.homedir(), ".cache");
  return path.join(base, "partner-payments-toolkit", "toolchain");
}

/** npm install of `dependencies` into `prefix` (a package.json naming them is written there). */
function npmInstall(prefix, dependencies, what) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(
    path.join(prefix, "package.json"),
    `${JSON.stringify({ private: true, dependencies }, null, 2)}\n`,
  );
  // The npm that launched us, else the one on PATH.
  const npmCli = process.env.npm_execpath;
  const useCli = npmCli && /npm-cli\.js$/.test(npmCli) && existsSync(npmCli);
  const [cmd, pre] = useCli ? [process.execPath, [npmCli]] : ["npm", []];
  run(cmd, [...pre, "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error"], {
    what,
  });
}

/**
 * Points .tools at the cache's install of `dependencies`, installing it there first when it is
 * missing. The install goes to a folder of its own and is renamed into place when complete, so
 * that a clone set up at the same time, or an install cut short, never leaves a half toolchain.
 */
function linkCachedToolchain(dependencies, what) {
  const key = Object.entries(dependencies)
    .map(([name, version]) => `${name}-${version}`)
    .join("+");
  const cached = path.join(toolchainCache(), key);
  if (!existsSync(path.join(cached, "node_modules", ".bin", "pnpm"))) {
    step(`installing ${what} from the npm registry into ${cached}\u2026`);
    const partial = `${cached}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    npmInstall(partial, dependencies, `installing ${what} into ${cached}`);
    try {
      renameSync(partial, cached);
    } catch (error) {
      // Another setup finished the same install first: use theirs.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(cached)) throw error;
    }
  }
  // A junction on Windows: it needs no privilege, where a directory symlink does.
  symlinkSync(cached, tools, isWindows ? "junction" : "dir");
  step(`.tools/ links to ${cached}`);
}

/** Whether .tools is a link (to the cache), rather than a folder of its own. */
function toolsIsLink() {
  try {
    return lstatSync(tools).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The toolchain: the machine's Node when it is at least the pinned one, else the pinned Node in
 * .tools; the pinned pnpm from PATH or .tools. Installs only what is missing.
 */
function ensureToolchain() {
  const nodeOnPath = versionOf("node");
  const nodeOk = nodeOnPath !== null && compareVersions(nodeOnPath, NODE_VERSION) >= 0;
  const pnpmOk = versionOf("pnpm") === PNPM_VERSION;
  if (!nodeOk || !pnpmOk) {
    // One manifest names every tool of .tools, so that an install never prunes another one.
    const dependencies = { pnpm: PNPM_VERSION };
    if (!nodeOk || existsSync(path.join(toolsBin, "node"))) dependencies.node = NODE_VERSION;
    const what = Object.entries(dependencies)
      .map(([name, version]) => `${name} ${version}`)
      .join(" and ");
    // A link to other versions is replaced; the cached install it named stays for the clones
    // that use it.
    if (toolsIsLink()) unlinkSync(tools);
    if (existsSync(tools)) {
      // A .tools folder of its own (made before the cache was used): updated in place.
      step(`installing ${what} from the npm registry into .tools/\u2026`);
      npmInstall(tools, dependencies, `installing ${what} into .tools/`);
    } else {
      linkCachedToolchain(dependencies, what);
    }
  }
  const node = versionOf("node");
  if (!node || compareVersions(node, NODE_VERSION) < 0) {
    fail(`the toolchain needs Node ${NODE_VERSION} or later, but \`node\` is ${node ?? "missing"}`);
  }
  const pnpm = versionOf("pnpm");
  if (pnpm !== PNPM_VERSION) {
    fail(`the toolchain needs pnpm ${PNPM_VERSION}, but \`pnpm --version\` gives ${pnpm}`);
  }
  const where = node === process.versions.node ? "this machine's" : "the toolchain's, in .tools/";
  step(`using Node v${node} (${where}) and pnpm ${pnpm}`);
}

/** The toolchain is there already (`npm run setup` ran): for commands that install nothing. */
function requireToolchain() {
  const node = versionOf("node");
  if (!node || compareVersions(node, NODE_VERSION) < 0 || versionOf("pnpm") !== PNPM_VERSION) {
    fail(
      `the toolchain (Node ${NODE_VERSION}+, pnpm ${PNPM_VERSION}) is not set up: run \`npm run setup\` once first`,
    );
  }
}

function setup() {
  ensureToolchain();
  step("installing dependencies (pnpm install --frozen-lockfile)\u2026");
  run("pnpm", ["install", "--frozen-lockfile", "--config.confirmModulesPurge=false"], {
    what: "pnpm install --frozen-lockfile",
  });
}

/**
 * Runs the whole suite, passing its output through as it comes, and closes with one line of
 * vitest totals over every package (turbo replays a cached task's output, so those count too).
 * test:all runs one task per core (`--concurrency=100%`), where turbo's default is ten: each test
 * task runs its own workers, and on 2 cores ten tasks at once cost about a tenth more CPU.
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

function build() {
  step("building (turbo run build; a package's output shows only if it fails)\u2026");
  run("turbo", ["run", "build", "--output-logs=errors-only"], { what: "build" });
}

/** The parent of process `pid`, where `ps` tells it. */
function parentOf(pid) {
  const res = spawnSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" });
  const ppid = Number(res.stdout);
  return res.status === 0 && Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function serve(args) {
  step("starting servers (packages/docs/scripts/serve-all.ts)\u2026");
  const child = spawn(
    "node",
    [path.join(root, "packages", "docs", "scripts", "serve-all.ts"), ...args],
    {
      cwd: root,
      env,
      stdio: "inherit",
      shell: isWindows,
    },
  );
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => child.kill(sig));
  }
  // Under `npm start`, npm runs this through a shell and passes no SIGHUP or SIGTERM on past it:
  // `kill <npm's pid>` would leave the servers running. Once the shell or npm is gone, stop.
  if (process.env.npm_command !== undefined) {
    const parent = process.ppid;
    const npm = parentOf(parent);
    setInterval(() => {
      if (process.ppid !== parent || (npm !== undefined && !isRunning(npm))) child.kill("SIGTERM");
    }, 500).unref();
  }
  child.on("exit", (code, signal) => {
    if (code !== 0 && !signal) fail(`serve exited with code ${code}`, code ?? 1);
    process.exit(code ?? 0);
  });
}

switch (mode) {
  case "setup":
    setup();
    step("set up: `node scripts/bootstrap.mjs run <command>` runs a command on the toolchain");
    break;
  case "test":
    if (underPnpm) ensureToolchain();
    else setup();
    // The browser tests drive Debian's chromium: install it when missing (root + apt) or say how.
    run("node", [path.join(root, "scripts", "ensure-chromium.ts")], {
      what: "Chromium for the browser tests",
    });
    // The sandbox tests start their own Postgres from Debian's postgresql: likewise.
    run("node", [path.join(root, "scripts", "ensure-postgres.ts")], {
      what: "Postgres for the sandbox tests",
    });
    // The curl guides' helpers use jq (Debian's jq): likewise.
    run("node", [path.join(root, "scripts", "ensure-jq.ts")], {
      what: "jq for the curl guides",
    });
    step("running the whole suite (pnpm run test:all)\u2026");
    await runSuite();
    break;
  case "start":
    if (underPnpm) ensureToolchain();
    else setup();
    build();
    serve(extraArgs);
    break;
  case "dev":
    requireToolchain();
    build();
    serve(["--watch", ...extraArgs]);
    break;
  case "run": {
    requireToolchain();
    const command = extraArgs.join(" ");
    run(command, [], { what: command, shell: true });
    break;
  }
  default:
    fail(
      `usage: node scripts/bootstrap.mjs <setup|test|start|dev|run> [args...] (got ${mode ?? "nothing"})`,
      2,
    );
}
