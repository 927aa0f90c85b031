// The state file named by --state: a SQLite database, or a 0.1 JSON state file that is moved
// into a new SQLite database once (the JSON file is kept byte for byte beside it as a backup).
// Anything else is refused, naming the file, and left untouched.
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { invalidDataReason, type SandboxData } from "./sandbox-data.js";
import { SQLITE_HEADER } from "./sqlite-store.js";

export type StateFileKind = "none" | "sqlite" | "json";

/**
 * What the file is, from its first bytes: an empty or missing file is a new database. A directory,
 * FIFO or device is refused, naming it, before anything reads it (a FIFO's read would block).
 */
export function stateFileKind(path: string): StateFileKind {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return "none";
  if (!stat.isFile()) {
    throw new Error(
      `The sandbox state file ${path} is ${stat.isDirectory() ? "a directory" : "not a regular file (a FIFO or a device?)"}: give --state the path of a file`,
    );
  }
  if (stat.size === 0) return "none";
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header.toString("latin1") === SQLITE_HEADER ? "sqlite" : "json";
}

/** The data of a 0.1 JSON state file. Throws, naming the file, when it is not sandbox state. */
export function readJsonStateFile(path: string): SandboxData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw refused(path, `it is not valid JSON (${(error as Error).message})`);
  }
  const reason = invalidDataReason(parsed);
  if (reason !== undefined) throw refused(path, reason);
  return parsed as SandboxData;
}

/** Where a migrated 0.1 JSON state file is kept. */
function backupPathOf(path: string): string {
  return `${path}.0.1-backup.json`;
}

/**
 * Moves a 0.1 JSON state file aside (renamed, so byte for byte the same) and puts the database
 * `fill` writes at its path. The database is written under a temporary name first, so a crash
 * mid-way leaves the JSON file where it was.
 */
export async function replaceJsonWithDatabase(
  path: string,
  fill: (temporary: string) => Promise<void>,
): Promise<string> {
  const backup = backupPathOf(path);
  if (existsSync(backup)) {
    throw new Error(
      `The sandbox state file ${path} is a 0.1 JSON state file to migrate, but its backup ${backup} already exists. Nothing was changed; move ${backup} away and start again.`,
    );
  }
  const temporary = `${path}.${process.pid}.migrating`;
  try {
    await fill(temporary);
  } catch (error) {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${temporary}${suffix}`, { force: true });
    throw error;
  }
  renameSync(path, backup);
  renameSync(temporary, path);
  return backup;
}

function refused(path: string, reason: string): Error {
  return new Error(
    `The sandbox state file ${path} is not valid sandbox state (neither a sandbox SQLite database nor a JSON state file of payments-mock 0.1): ${reason}. It was left untouched; fix it, move it away or choose another --state file.`,
  );
}
