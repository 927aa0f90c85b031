// Makes sure the Chromium that the browser tests drive is installed (Node built-ins only).
// - $CHROMIUM_PATH (if set) or /usr/bin/chromium exists: nothing to do.
// - Otherwise, as root on a machine with apt-get (Debian/Ubuntu, CI): installs Debian's
//   `chromium` package. Browsers are never downloaded from anywhere else.
// - Otherwise: exits 1 and says how to install it.
import { accessSync, constants, existsSync } from "node:fs";
import { canInstallWithApt, fail, installDebianPackage, step } from "./debian-package.ts";

// The path launchChromium (@org/payments-testing) launches.
const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

const requested = process.env.CHROMIUM_PATH;

function isExecutable(file: string) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
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
if (!canInstallWithApt()) {
  fail(`Chromium was not found at ${chromiumPath}. ${howTo}`);
}

step("Chromium not found: installing Debian's chromium package (needs a few minutes)\u2026");
installDebianPackage("chromium");
if (!isExecutable(chromiumPath)) fail(`apt-get installed chromium, but ${chromiumPath} is missing`);
step(`installed Chromium at ${chromiumPath}`);
