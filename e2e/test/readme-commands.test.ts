// The root README's everyday commands work for a user with Node and npm only: each names a root
// script, and the scripts that run turbo find the pnpm that `npm start`/`npm test` put in .tools/.
// What a command shares with `check:repo` (Biome, knip, the scripts' tsc, the breaking-change
// guard) is not run again here: `npm test` runs check:repo in the same turbo run, so this checks
// that the command's text holds the same commands, and runs what is its own (npm and the
// bootstrap in front, turbo starting its tasks with pnpm).
import { execFile } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts;
const toolsBin = path.join(root, ".tools/node_modules/.bin");

const hasPnpm = (dir: string) => {
  try {
    accessSync(path.join(dir, "pnpm"), constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const mirrors = mkdtempSync(path.join(tmpdir(), "payments-path-without-pnpm-"));
afterAll(() => rmSync(mirrors, { recursive: true, force: true }));

/**
 * PATH as it is, but with no pnpm: a directory that holds one (often /usr/bin, beside node and npm)
 * is replaced by a mirror of its other entries.
 */
function pathWithoutPnpm(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "")
    .map((dir, i) => {
      if (!hasPnpm(dir)) return dir;
      const mirror = path.join(mirrors, String(i));
      mkdirSync(mirror, { recursive: true });
      for (const entry of readdirSync(dir)) {
        if (entry !== "pnpm" && entry !== "pnpx")
          symlinkSync(path.join(dir, entry), path.join(mirror, entry));
      }
      return mirror;
    })
    .join(path.delimiter);
}

/** The pnpm a user without one of their own has: the one the bootstrap installs into .tools/. */
function whichPnpm(): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && hasPnpm(dir)) return path.join(dir, "pnpm");
  }
  throw new Error("no pnpm on PATH to stand in for the one in .tools/");
}

/** The machine's own Node: the first on PATH that is not the toolchain's. */
function machineNode(): string {
  const ours = [toolsBin, path.join(root, "node_modules/.bin")];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "" || ours.includes(dir)) continue;
    const node = path.join(dir, "node");
    if (existsSync(node)) return node;
  }
  throw new Error("no Node of the machine's own on PATH");
}

describe("the README's everyday commands", () => {
  const commands = [...readme.matchAll(/^\| `npm (?:run )?([\w:-]+)`/gm)].map((m) => m[1] ?? "");

  it("are listed in npm's form, and each names a root script", () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(readme).not.toMatch(/^\| `pnpm /m);
    for (const command of commands) expect(scripts, command).toHaveProperty(command);
  });

  describe("without pnpm on PATH", () => {
    let placed = false;
    let PATH = "";
    beforeAll(() => {
      PATH = pathWithoutPnpm();
      if (existsSync(path.join(toolsBin, "pnpm"))) return;
      mkdirSync(toolsBin, { recursive: true });
      symlinkSync(whichPnpm(), path.join(toolsBin, "pnpm"));
      placed = true;
    });
    afterAll(() => {
      if (placed) rmSync(path.join(toolsBin, "pnpm"), { force: true });
    });

    const npm = (...args: string[]) =>
      execFileAsync("npm", ["run", ...args], {
        cwd: root,
        env: { ...process.env, PATH, npm_config_update_notifier: "false" },
      });

    /** The command a root script runs through `node scripts/bootstrap.mjs run`. */
    const bootstrapped = (script: string): string => {
      const prefix = "node scripts/bootstrap.mjs run ";
      expect(scripts[script]).toMatch(new RegExp(`^${prefix}`));
      const command = scripts[script].slice(prefix.length);
      return command.startsWith('"') ? JSON.parse(command) : command;
    };
    const checkRepo: string[] = scripts["check:repo"].split(" && ");

    it("npm run lint runs check:repo's checks, then turbo, whose tasks start with the pnpm of .tools/", async () => {
      const commands = bootstrapped("lint").split(" && ");
      expect(commands.at(-1)).toBe("turbo run lint");
      const checks = commands.slice(0, -1);
      expect(checks.length).toBeGreaterThan(0);
      for (const check of checks) expect(checkRepo).toContain(check);
      // The rest of `npm run lint -- <args>`, as the bootstrap runs it (its arguments after the
      // script's), with --force so that turbo really starts the task instead of replaying its cache,
      // and --only so that it starts that one (the packages it depends on are built already).
      const { stdout } = await execFileAsync(
        "node",
        [
          "scripts/bootstrap.mjs",
          "run",
          "turbo run lint",
          "--filter=@org/payments-testing",
          "--only",
          "--force",
        ],
        { cwd: root, env: { ...process.env, PATH } },
      );
      expect(stdout).toMatch(/payments-testing:lint: cache bypass, force executing/);
      expect(stdout).toMatch(/Tasks:\s+\d+ successful/);
    });

    it("bootstrap's run puts the toolchain's Node first, whichever Node starts it", async () => {
      const pinned = readFileSync(path.join(root, ".node-version"), "utf8").trim();
      const { stdout } = await execFileAsync(
        machineNode(),
        ["scripts/bootstrap.mjs", "run", "node", "--version"],
        { cwd: root, env: { ...process.env, PATH } },
      );
      const rank = (version: string) => {
        const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
        return major * 1000 + minor;
      };
      expect(rank(stdout.trim()), stdout).toBeGreaterThanOrEqual(rank(pinned));
    });

    it("npm run spec:diff answers, with the guard check:repo runs with --check", async () => {
      const command = bootstrapped("spec:diff");
      expect(checkRepo).toContain(`${command} --check`);
      // The report itself is check:repo's run and packages/surface-guard's tests; here, that npm,
      // the bootstrap and the toolchain's Node bring the arguments to the script.
      const { stdout } = await npm("spec:diff", "--", "--help");
      expect(stdout).toMatch(/^Usage: .*spec:diff \[--check\]/m);
    });
  });
});
