// Started by npm (`npx payments-mock`, `npm start`), a command stops when npm does: npm runs it
// through a shell and passes no SIGHUP or SIGTERM on past it, so `kill <npm's pid>` would leave the
// servers running. The command watches its parent (the shell) and npm above it, and stops as on
// a signal once either is gone.
import { execFileSync } from "node:child_process";

/** How often the parents are looked at. */
const PARENT_CHECK_MS = 500;

/** Calls `stop` once the process's parent or npm above it has gone, when npm started it. */
export function stopWithNpm(stop: () => void): void {
  if (process.env.npm_command === undefined) return;
  const parent = process.ppid;
  const npm = parentOf(parent);
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === undefined || isRunning(npm))) return;
    clearInterval(timer);
    stop();
  }, PARENT_CHECK_MS);
  // It keeps no process alive by itself.
  timer.unref();
}

/** The parent of process `pid`, where `ps` tells it. */
function parentOf(pid: number): number | undefined {
  try {
    const ppid = Number(
      execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }),
    );
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
