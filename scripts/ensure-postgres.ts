// Makes sure the Postgres that the mock's sandbox tests start is installed (Node built-ins only).
// - Debian's postgresql package is there (/usr/lib/postgresql/<version>/bin/initdb): nothing to do.
// - Otherwise, as root on a machine with apt-get (Debian/Ubuntu, CI): installs it.
// - Otherwise: exits 1 and says how to install it.
// The tests run their own server (initdb into a temp folder); the package's service is not used.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { canInstallWithApt, fail, installDebianPackage, step } from "./debian-package.ts";

const ROOT = "/usr/lib/postgresql";
const HOW_TO =
  "The mock's sandbox tests need Postgres. Install Debian's package with " +
  "`sudo apt-get update && sudo apt-get install -y postgresql`, or run " +
  "`node scripts/ensure-postgres.ts` as root.";

function installedBin(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const version = readdirSync(ROOT)
    .filter((name) => existsSync(join(ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version === undefined ? undefined : join(ROOT, version, "bin");
}

const found = installedBin();
if (found !== undefined) {
  step(`using Postgres in ${found}`);
  process.exit(0);
}
if (!canInstallWithApt()) {
  fail(`Postgres was not found under ${ROOT}. ${HOW_TO}`);
}
step("Postgres not found: installing Debian's postgresql package\u2026");
installDebianPackage("postgresql");
const installed =
  installedBin() ?? fail(`apt-get installed postgresql, but ${ROOT}/*/bin/initdb is missing`);
step(`installed Postgres in ${installed}`);
