// What a curl guide or sample may run besides the shell's builtins: curl and jq (Debian's
// packages), nothing else. The tests run them with a PATH of one folder holding only those two,
// so a command that needs Node, Python or another tool fails the test. Under CI a missing jq is
// installed by scripts/ensure-jq.ts (root + apt); otherwise the run fails saying how to get it.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ensureJq = fileURLToPath(new URL("../../../../scripts/ensure-jq.ts", import.meta.url));

/** Where `command` is on this machine's PATH, if it is. */
function found(command: string): string | undefined {
  const where = spawnSync("bash", ["-c", `command -v ${command}`], { encoding: "utf8" });
  return where.status === 0 ? where.stdout.trim() : undefined;
}

function required(command: string): string {
  const at = found(command);
  if (at !== undefined) return at;
  if (command === "jq" && process.env.CI) {
    const ensured = spawnSync(process.execPath, [ensureJq], { encoding: "utf8" });
    const installed = ensured.status === 0 ? found("jq") : undefined;
    if (installed !== undefined) return installed;
    throw new Error(`jq is missing and could not be installed: ${ensured.stderr.trim()}`);
  }
  throw new Error(
    `${command} is not on the PATH: install Debian's ${command} package (apt-get install -y ${command})${command === "jq" ? ", or run node scripts/ensure-jq.ts as root" : ""}`,
  );
}

/** bash, and a PATH of a folder with curl and jq only; `remove()` deletes the folder. */
export function curlAndJq(): { bash: string; PATH: string; remove(): void } {
  const bash = required("bash");
  const tools = { curl: required("curl"), jq: required("jq") };
  const dir = mkdtempSync(path.join(tmpdir(), "payments-shell-tools-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    for (const [command, at] of Object.entries(tools)) symlinkSync(at, path.join(dir, command));
    // Checked once: the folder gives what the guides call.
    execFileSync(bash, ["-c", "curl --version >/dev/null && jq --version >/dev/null"], {
      env: { PATH: dir },
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { bash, PATH: dir, remove };
}

/**
 * A folder with an `npx` that runs `@org/payments-mock`'s bin from `packageDir`'s node_modules,
 * as npm's npx does for an installed package, without npm's own start (about 2 CPU-seconds a
 * call, loading the workspace's tree). guides.test.ts checks once that npm's npx runs the same.
 */
export function installedNpx(packageDir: string): { PATH: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "payments-npx-"));
  const bin = path.join(packageDir, "node_modules/.bin/payments-mock");
  writeFileSync(
    path.join(dir, "npx"),
    [
      "#!/usr/bin/env bash",
      'if [ "$1" != "@org/payments-mock" ]; then',
      '  echo "this npx runs @org/payments-mock only, not $1" >&2; exit 1',
      "fi",
      "shift",
      `exec ${JSON.stringify(bin)} "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return { PATH: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
