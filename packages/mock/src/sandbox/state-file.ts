// The state file: read once at start, rewritten after every change. Each write goes to a
// temporary file that is then renamed over the old one, so a crash never leaves half a file.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { invalidDataReason, type SandboxData, STATE_FORMAT } from "./state.js";

/** The data in the file, or undefined when there is no file. Throws, naming the file, when it is not sandbox state. */
export function readStateFile(path: string): SandboxData | undefined {
  if (!existsSync(path)) return undefined;
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

export function writeStateFile(path: string, data: SandboxData): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ format: STATE_FORMAT, ...data }));
  renameSync(temporary, path);
}

function refused(path: string, reason: string): Error {
  return new Error(
    `The sandbox state file ${path} is not valid sandbox state: ${reason}. It was left untouched; fix it, move it away or choose another --state file.`,
  );
}
