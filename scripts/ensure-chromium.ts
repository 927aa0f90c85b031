// Makes sure the Chromium that the browser tests drive is installed (Node built-ins only).
// - $CHROMIUM_PATH (if set) or /usr/bin/chromium exists: nothing to do.
// - Otherwise, as root on a machine with apt-get (Debian/Ubuntu, CI): installs Debian's
//   `chromium` package. Browsers are never downloaded from anywhere else.
// - Otherwise: exits 1 and says how to install it.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { chromiumPath } from "./launch-chromium.ts";

const requested = process.env.CHROMIUM_PATH;

const step = (message: string) => console.log(`\u25b8 ${message}`);
const fail = (message: string): never => {
  console.error(`\u2716 ${message}`);
  process.exit(1);
};

function isExecutable(file: string) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasAptGet() {
  return spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

function apt(args: string[]) {
  step(`apt-get ${args.join(" ")}`);
  const result = spawnSync("apt-get", args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) {
    fail(`apt-get ${args[0]} failed (${result.error?.message ?? `exit code ${result.status}`})`);
  }
}

if (isExecutable(chromiumPath)) {
  step(`using Chromium at ${chromiumPath}`);
  process.exit(0);
}

const howTo =
  "The browser tests need Chromium. Install Debian's package with " +
  "`sudo apt-get update && sudo apt-get install -y chromium`, " +
  "or set CHROMIUM_PATH to a Chromium or Chrome executable.";

if (requested)
  fail(`CHROMIUM_PATH is set to ${requested}, which is not an executable file. ${howTo}`);
if (existsSync(chromiumPath)) fail(`${chromiumPath} exists but is not executable. ${howTo}`);
if (process.platform !== "linux" || process.getuid?.() !== 0 || !hasAptGet()) {
  fail(`Chromium was not found at ${chromiumPath}. ${howTo}`);
}

step("Chromium not found: installing Debian's chromium package (needs a few minutes)\u2026");
apt(["update"]);
apt(["install", "-y", "--no-install-recommends", "chromium"]);
if (!isExecutable(chromiumPath)) fail(`apt-get installed chromium, but ${chromiumPath} is missing`);
step(`installed Chromium at ${chromiumPath}`);
