// Runs TypeScript samples with Node, one after another in this one process (forked with IPC by a
// test): each message names a sample's file, which is imported as Node runs it from the command
// line (its types stripped, as an ES module), and the answer says whether it ran to its end or
// what it threw, as Node would print it. Loading the packages once, not once per sample, is what
// this process is for.
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";

export type SampleOutcome = { file: string; ok: true } | { file: string; ok: false; error: string };

process.on("message", async (file: string) => {
  const outcome: SampleOutcome = await import(pathToFileURL(file).href).then(
    () => ({ file, ok: true }),
    (error: unknown) => ({ file, ok: false, error: inspect(error) }),
  );
  process.send?.(outcome);
});
