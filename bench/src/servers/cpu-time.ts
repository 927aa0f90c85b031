// A process's CPU time, as the kernel counts it: less moved by the machine's other work than
// wall time, since a process waiting for a core is not counted.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

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
