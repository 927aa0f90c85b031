// One Node process that runs a test's TypeScript samples in turn (see sample-runner.ts): the
// test decides what happens between two samples (a sandbox reset, say), and reads each outcome.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SampleOutcome } from "./sample-runner.ts";

const runner = fileURLToPath(new URL("./sample-runner.ts", import.meta.url));

/** Starts the process in `cwd` with only `env`; `run(file)` runs a sample, `stop()` ends it. */
export function startSamplesProcess(cwd: string, env: Record<string, string>) {
  const child = fork(runner, [], { cwd, env, stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    /** Runs the sample in `file`: "ok", or what it threw. */
    async run(file: string): Promise<string> {
      const outcome = await new Promise<SampleOutcome>((resolve, reject) => {
        const onMessage = (answer: SampleOutcome) => {
          if (answer.file !== file) return;
          settle();
          resolve(answer);
        };
        const onExit = (code: number | null) => {
          settle();
          reject(new Error(`the samples' process exited (${code}) running ${file}: ${stderr}`));
        };
        const settle = () => {
          child.off("message", onMessage);
          child.off("exit", onExit);
        };
        child.on("message", onMessage);
        child.on("exit", onExit);
        child.send(file);
      });
      return outcome.ok ? "ok" : outcome.error;
    },
    async stop() {
      // A sample's open connections would keep it alive: it has nothing left to do.
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
