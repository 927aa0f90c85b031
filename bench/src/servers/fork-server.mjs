// Starts a server of src/servers/serve.mjs in a child process.
import { fork } from "node:child_process";
import { once } from "node:events";

/** @typedef {{ url: string, startToFirstAnswerMs: number, stop: () => Promise<void> }} ForkedServer */

/**
 * @param {"plain" | "mock" | "sandbox"} kind
 * @returns {Promise<ForkedServer>}
 */
export async function forkServer(kind) {
  const child = fork(new URL("./serve.mjs", import.meta.url), [kind], { stdio: "inherit" });
  const exited = once(child, "exit");
  const ready = /** @type {Promise<[{ url: string, startToFirstAnswerMs: number }]>} */ (
    once(child, "message")
  );
  const first = await Promise.race([ready, exited]);
  const message = first[0];
  if (message === null || typeof message !== "object") {
    throw new Error(`the ${kind} server exited before it answered`);
  }
  return {
    ...message,
    async stop() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}
