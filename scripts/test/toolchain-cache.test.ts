// bootstrap.mjs installs the toolchain once into the user's cache and links each clone's .tools to
// it. Two stand-in clones (a package.json pinning this repository's pnpm, a .node-version this Node
// meets, so that only pnpm is installed) share a cache of their own, with no pnpm on PATH. A
// stand-in npm first on PATH "installs" a pnpm that answers --version and `install`, and records
// each install: the test is about where the toolchain goes, not about npm or the registry.
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const { packageManager } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const pnpmVersion = String(packageManager).replace(/^pnpm@/, "");
const run = promisify(execFile);

/** The stand-in npm: `install --prefix <dir>` writes a pnpm into <dir> and logs the install. */
const standInNpm = (log: string) => `#!/usr/bin/env node
const { appendFileSync, chmodSync, mkdirSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
const prefix = args[args.indexOf("--prefix") + 1];
appendFileSync(${JSON.stringify(log)}, prefix + "\\n");
const bin = path.join(prefix, "node_modules", ".bin");
mkdirSync(bin, { recursive: true });
const pnpm = path.join(bin, "pnpm");
writeFileSync(pnpm, "#!/bin/sh\\n[ \\"$1\\" = --version ] && echo ${pnpmVersion}\\nexit 0\\n");
chmodSync(pnpm, 0o755);
`;

let work: string;
let cache: string;
let installs: string;
let PATH: string;

/** PATH with every folder that holds a pnpm replaced by a mirror of its other entries. */
function pathWithoutPnpm(mirrors: string): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && existsSync(dir))
    .map((dir, i) => {
      if (!existsSync(path.join(dir, "pnpm"))) return dir;
      const mirror = path.join(mirrors, String(i));
      mkdirSync(mirror, { recursive: true });
      for (const entry of readdirSync(dir)) {
        if (entry !== "pnpm" && entry !== "pnpx") {
          symlinkSync(path.join(dir, entry), path.join(mirror, entry));
        }
      }
      return mirror;
    })
    .join(path.delimiter);
}

/** A stand-in clone: the bootstrap, and a root package.json with no dependencies. */
function clone(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  copyFileSync(path.join(root, "scripts/bootstrap.mjs"), path.join(dir, "scripts/bootstrap.mjs"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, private: true, type: "module", packageManager }),
  );
  writeFileSync(path.join(dir, ".node-version"), `${process.versions.node}\n`);
  return dir;
}

async function setup(dir: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH, XDG_CACHE_HOME: cache };
  // Not the npm that runs the tests: the stand-in, first on PATH.
  delete env.npm_execpath;
  const { stdout } = await run(process.execPath, ["scripts/bootstrap.mjs", "setup"], {
    cwd: dir,
    env,
  });
  return stdout;
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "payments-toolchain-cache-"));
  cache = path.join(work, "cache");
  installs = path.join(work, "installs.log");
  const npm = path.join(work, "npm-bin");
  mkdirSync(npm);
  writeFileSync(path.join(npm, "npm"), standInNpm(installs));
  chmodSync(path.join(npm, "npm"), 0o755);
  PATH = [npm, pathWithoutPnpm(path.join(work, "path"))].join(path.delimiter);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The folders the stand-in npm installed into, in order. */
const installed = () => readFileSync(installs, "utf8").trim().split("\n");

it("installs pnpm once into the cache, links every clone's .tools to it, and installs again when the cache is gone", async () => {
  const cached = path.join(cache, "partner-payments-toolkit", "toolchain", `pnpm-${pnpmVersion}`);
  const first = clone("first");
  const firstSetup = await setup(first);
  expect(firstSetup).toContain(
    `installing pnpm ${pnpmVersion} from the npm registry into ${cached}`,
  );
  expect(firstSetup).toContain(`using Node v${process.versions.node}`);
  expect(readlinkSync(path.join(first, ".tools"))).toBe(cached);
  expect(existsSync(path.join(cached, "node_modules/.bin/pnpm"))).toBe(true);
  // Nothing half-installed is left beside it.
  expect(readdirSync(path.dirname(cached))).toEqual([path.basename(cached)]);
  // Installed beside it, then moved into place.
  expect(installed()).toEqual([expect.stringMatching(new RegExp(`^${cached}\\.partial-\\d+$`))]);

  const second = clone("second");
  const secondSetup = await setup(second);
  expect(secondSetup).not.toContain("installing pnpm");
  expect(secondSetup).toContain(`pnpm ${pnpmVersion}`);
  expect(readlinkSync(path.join(second, ".tools"))).toBe(cached);
  expect(installed()).toHaveLength(1);

  // The cache removed: the link left dangling is replaced by a new install.
  rmSync(cache, { recursive: true, force: true });
  expect(await setup(second)).toContain(`installing pnpm ${pnpmVersion}`);
  expect(existsSync(path.join(second, ".tools/node_modules/.bin/pnpm"))).toBe(true);
  expect(installed()).toHaveLength(2);
});

it("keeps the .tools link out of git, as the folder it replaced was", async () => {
  const repository = clone("repository");
  copyFileSync(path.join(root, ".gitignore"), path.join(repository, ".gitignore"));
  await run("git", ["init", "--quiet"], { cwd: repository });
  await setup(repository);
  expect(readlinkSync(path.join(repository, ".tools"))).toContain("partner-payments-toolkit");
  const { stdout } = await run("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: repository,
  });
  expect(stdout.split("\n")).not.toContain("?? .tools");
});
