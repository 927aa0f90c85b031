// What the ensure-* scripts share: progress and failure lines, and installing one of Debian's
// packages with apt-get where that can work (Linux, root, apt-get present).
import { spawnSync } from "node:child_process";

export const step = (message: string) => console.log(`\u25b8 ${message}`);

export const fail = (message: string): never => {
  console.error(`\u2716 ${message}`);
  process.exit(1);
};

/** Whether this machine can install Debian packages itself: Linux, running as root, with apt-get. */
export function canInstallWithApt(): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  return spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

/** `apt-get update`, then installs `name` without its recommended packages; fails on an error. */
export function installDebianPackage(name: string): void {
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", name]]) {
    step(`apt-get ${args.join(" ")}`);
    const result = spawnSync("apt-get", args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0) {
      fail(`apt-get ${args[0]} failed (${result.error?.message ?? `exit code ${result.status}`})`);
    }
  }
}
