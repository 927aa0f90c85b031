#!/usr/bin/env node
// Serves what has been built: for each of packages/mock and packages/docs that exists, runs its
// `start` script (`pnpm run start` in that package) with PORT set, and prints the URL.
// Contract for those packages: `start` serves the built output on $PORT (and $HOST).
// If neither package exists yet, says so and exits 0. Node built-ins only.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const isWindows = process.platform === "win32";
const host = process.env.HOST ?? "127.0.0.1";
const servers = [
  { dir: "packages/mock", label: "Prism mock server", port: process.env.MOCK_PORT ?? "4010" },
  { dir: "packages/docs", label: "API docs", port: process.env.DOCS_PORT ?? "4020" },
];

const children = [];
for (const s of servers) {
  const pkgPath = path.join(root, s.dir, "package.json");
  if (!existsSync(pkgPath)) continue;
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  if (!pkg.scripts?.start) {
    console.warn(`\u26a0 ${s.dir} (${pkg.name}) has no "start" script; not serving it`);
    continue;
  }
  const child = spawn("pnpm", ["run", "start"], {
    cwd: path.join(root, s.dir),
    env: { ...process.env, PORT: s.port, HOST: host },
    stdio: "inherit",
    shell: isWindows,
    // Own process group, so stopping reaches the server pnpm started, not only pnpm.
    detached: !isWindows,
  });
  child.on("error", (err) => {
    console.error(`\u2716 could not start ${s.dir}: ${err.message}`);
    shutdown(1);
  });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`\u2716 ${s.label} (${s.dir}) stopped (${signal ?? `exit code ${code}`})`);
    shutdown(code || 1);
  });
  children.push(child);
  console.log(`\u25b8 ${s.label}: http://${host}:${s.port}/  (${pkg.name})`);
}

let stopping = false;
function shutdown(code) {
  stopping = true;
  for (const c of children) {
    if (c.exitCode !== null) continue;
    try {
      if (isWindows) c.kill("SIGTERM");
      else process.kill(-c.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

if (children.length === 0) {
  console.log("\u2714 build done. Nothing to serve yet (no packages/mock or packages/docs).");
} else {
  console.log("\u25b8 press Ctrl-C to stop");
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => shutdown(0));
}
