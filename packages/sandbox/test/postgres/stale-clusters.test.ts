// A run killed before its teardown leaves its test cluster (in /dev/shm, memory held until the
// machine restarts); the next run's startPostgres removes it. It keeps a cluster whose server
// runs, and one that another run may be making.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeStaleClusters } from "@org/payments-testing";
import { afterEach, expect, it } from "vitest";

const parents: string[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true });
});

/** A cluster's folder under `parent`, with a postmaster.pid naming `pid` unless it is undefined. */
function cluster(parent: string, name: string, pid?: number): string {
  const dir = join(parent, `payments-sandbox-pg-${name}`);
  mkdirSync(join(dir, "data"), { recursive: true });
  if (pid !== undefined) writeFileSync(join(dir, "data", "postmaster.pid"), `${pid}\n/data\n`);
  return dir;
}

it("removes the clusters whose server is gone or never came, and keeps the others", () => {
  const parent = mkdtempSync(join(tmpdir(), "payments-stale-clusters-"));
  parents.push(parent);
  // A process that has ended: its pid names no live process.
  const ended = spawnSync(process.execPath, ["-e", ""]).pid;
  const dead = cluster(parent, "dead", ended);
  const running = cluster(parent, "running", process.pid);
  const making = cluster(parent, "making");
  const abandoned = cluster(parent, "abandoned");
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  utimesSync(abandoned, hourAgo, hourAgo);
  const other = join(parent, "something-else");
  mkdirSync(other);

  removeStaleClusters(parent);

  expect(existsSync(dead)).toBe(false);
  expect(existsSync(abandoned)).toBe(false);
  expect(existsSync(running)).toBe(true);
  expect(existsSync(making)).toBe(true);
  expect(existsSync(other)).toBe(true);
});
