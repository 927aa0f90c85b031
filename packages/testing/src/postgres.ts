// A real Postgres for the tests: Debian's postgresql package, a cluster initdb'd into a temp
// folder (in memory, under /dev/shm, where there is one), listening on a free port of 127.0.0.1, removed when the run ends (also when it fails),
// or, where a run was killed before its end, by the next run.
// Under CI a missing Postgres is installed by scripts/ensure-postgres.ts (root + apt); otherwise
// the run fails saying how to get it. It is never skipped.
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  accessSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const DEBIAN_ROOT = "/usr/lib/postgresql";
/** The repository's script that installs Postgres: a file run, not a module imported. */
const ensurePostgres = join(repositoryRoot(), "scripts", "ensure-postgres.ts");

function repositoryRoot(): string {
  let dir = fileURLToPath(new URL(".", import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("payments-testing: not inside the repository");
    dir = parent;
  }
  return dir;
}

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  stop(): Promise<void>;
}

/** The bin folder of the newest installed Postgres; under CI a missing one is installed first. */
export function postgresBin(): string {
  const found = newestBin();
  if (found !== undefined) return found;
  // The script installs Debian's package (root + apt) or fails saying how to get it.
  const ensured = spawnSync(process.execPath, [ensurePostgres], { encoding: "utf8" });
  const installed = process.env.CI && ensured.status === 0 ? newestBin() : undefined;
  if (installed !== undefined) return installed;
  throw new Error(
    `No Postgres under ${DEBIAN_ROOT}: ${process.env.CI ? ensured.stderr.trim() : "install Debian's postgresql package (apt-get install -y postgresql), or run node scripts/ensure-postgres.ts as root"}`,
  );
}

function newestBin(): string | undefined {
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => existsSync(join(DEBIAN_ROOT, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(DEBIAN_ROOT, versions[0], "bin");
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const parent = clusterParent();
  removeStaleClusters(parent);
  const dir = mkdtempSync(join(parent, CLUSTER_PREFIX));
  // Postgres refuses to run as root: as root, the cluster belongs to the postgres user.
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill("SIGKILL");
  const stop = async () => {
    process.off("exit", killOnExit);
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, "exit");
      // SIGINT is Postgres's fast shutdown: it ends the connections and stops.
      server.kill("SIGINT");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync(
      join(bin, "initdb"),
      ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"],
      { ...owner, stdio: "pipe" },
    );
    const port = await freePort();
    server = spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
      ],
      { ...owner, stdio: ["ignore", "ignore", "pipe"] },
    );
    process.on("exit", killOnExit);
    let log = "";
    server.stderr?.on("data", (chunk) => {
      log += chunk;
    });
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitUntilReady(url, server, () => log);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A new, empty database in the cluster, for one sandbox. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `sandbox_${crypto.randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    // A copy of template0's files: half the CPU of the default strategy (WAL_LOG), which writes
    // every page of the copy to the WAL as well.
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 STRATEGY FILE_COPY`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const CLUSTER_PREFIX = "payments-sandbox-pg-";
/** A cluster's folder with no server yet is left alone this long: another run may be making it. */
const UNSTARTED_GRACE_MS = 10 * 60 * 1000;

/**
 * Removes the clusters under `parent` that an earlier run left when it was killed before its
 * teardown: those whose server is gone (its postmaster.pid names no live process), and those that
 * never got one. A cluster in /dev/shm would otherwise hold its memory until the machine restarts.
 */
export function removeStaleClusters(parent: string, now = Date.now()): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const dir = join(parent, name);
    const pidFile = join(dir, "data", "postmaster.pid");
    const stale = existsSync(pidFile)
      ? !isAlive(Number(readFileSync(pidFile, "utf8").split("\n")[0]))
      : now - statSync(dir).mtimeMs > UNSTARTED_GRACE_MS;
    if (stale) rmSync(dir, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a live process of another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The room a test cluster needs in memory: its databases, their WAL and the server's shared memory. */
const SHM_NEEDED = 2 * 1024 ** 3;

/**
 * Where the cluster's folder goes: /dev/shm (memory) where there is one, else the temp folder.
 * Each sandbox of a test gets a database of its own, and each new database is a copy of template0
 * (some 8 MB): on this project's disks that was most of the tests' Postgres time, and removing the
 * cluster after the run took seconds more.
 */
function clusterParent(): string {
  const memory = "/dev/shm";
  try {
    accessSync(memory, constants.W_OK);
    // A container's /dev/shm is often 64 MB: too small for a cluster of many databases.
    const { bavail, bsize } = statfsSync(memory);
    return statSync(memory).isDirectory() && bavail * bsize >= SHM_NEEDED ? memory : tmpdir();
  } catch {
    return tmpdir();
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Postgres stopped at start:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) {
        throw new Error(`Postgres did not accept connections within 60 s:\n${log()}`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
