// A process's CPU time, as the kernel counts it: less moved by the machine's other work than
// wall time, since a process waiting for a core is not counted.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The kernel's clock ticks per second, which /proc counts CPU time in. */
let ticksPerSecond: number | undefined;

/** From /proc/<pid>/stat (Linux): utime and stime, the 14th and 15th fields, in milliseconds. */
export function cpuMsOf(pid: number | undefined): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command, which is in parentheses and may hold spaces, from the 3rd on.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * From /proc/<pid>/task/<tid>/schedstat (Linux): the time each thread has run, in nanoseconds,
 * summed, in milliseconds. Finer than `cpuMsOf`'s ticks of 10 ms, so that a short slice of
 * requests reads its own CPU time; a thread that has ended is no longer counted, so only a
 * process whose threads last (a Node server's) should be read so.
 */
export function threadsCpuMsOf(pid: number | undefined): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended after the listing.
    }
  }
  return ns / 1e6;
}
