// Runs TypeScript samples with Node, one after another in this one process (forked with IPC by a
// test): each message names a sample's file, which is imported as Node runs it from the command
// line (its types stripped, as an ES module), and the answer says whether it ran to its end or
// what it threw, as Node would print it. A sample run alone must also let its process exit: one
// that leaves something running (a server, a timer, a socket) is told as a failure. Loading the
// packages once, not once per sample, is what this process is for.
import { setImmediate } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";

export type SampleOutcome = { file: string; ok: true } | { file: string; ok: false; error: string };

// A sample's output opens the process's stdout: opened here, it is not counted as the sample's.
process.stdout.write("");

/** What keeps the process alive in `now` that did not in `before`. */
function added(before: string[], now: string[]): string[] {
  const left = [...now];
  for (const resource of before) {
    const at = left.indexOf(resource);
    if (at !== -1) left.splice(at, 1);
  }
  return left;
}

process.on("message", async (file: string) => {
  let outcome: SampleOutcome;
  const before = process.getActiveResourcesInfo();
  try {
    await import(pathToFileURL(file).href);
    // What the sample's last awaited call closed is gone once the loop has turned.
    await setImmediate();
    const left = added(before, process.getActiveResourcesInfo());
    outcome =
      left.length === 0
        ? { file, ok: true }
        : { file, ok: false, error: `ran to its end, but left running: ${left.join(", ")}` };
  } catch (error) {
    outcome = { file, ok: false, error: inspect(error) };
  }
  process.send?.(outcome);
});
