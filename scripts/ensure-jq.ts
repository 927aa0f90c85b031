// Makes sure jq, which the curl guides' helpers use beside the shell and curl, is installed
// (Node built-ins only).
// - `jq` is on the PATH: nothing to do.
// - Otherwise, as root on a machine with apt-get (Debian/Ubuntu, CI): installs Debian's `jq`.
// - Otherwise: exits 1 and says how to install it.
import { spawnSync } from "node:child_process";
import { canInstallWithApt, fail, installDebianPackage, step } from "./debian-package.ts";

const HOW_TO =
  "The curl guides' tests need jq. Install Debian's package with " +
  "`sudo apt-get update && sudo apt-get install -y jq`, or run `node scripts/ensure-jq.ts` as root.";

const version = () => spawnSync("jq", ["--version"], { encoding: "utf8" });

if (version().status === 0) {
  step(`using ${version().stdout.trim()}`);
  process.exit(0);
}
if (!canInstallWithApt()) fail(`jq was not found on the PATH. ${HOW_TO}`);
step("jq not found: installing Debian's jq package\u2026");
installDebianPackage("jq");
if (version().status !== 0) fail("apt-get installed jq, but `jq --version` does not run");
step(`installed ${version().stdout.trim()}`);
