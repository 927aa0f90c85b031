// Starts a server of src/servers/serve.ts in a child process.
import { fork } from "node:child_process";
import { once } from "node:events";

type ForkedServer = {
  url: string;
  startToFirstAnswerMs: number;
  pid: number | undefined;
  stop: () => Promise<void>;
};

export async function forkServer(kind: "plain" | "mock" | "sandbox"): Promise<ForkedServer> {
  const child = fork(new URL("./serve.ts", import.meta.url), [kind], { stdio: "inherit" });
  const exited = once(child, "exit");
  const ready = once(child, "message") as Promise<[{ url: string; startToFirstAnswerMs: number }]>;
  const first = await Promise.race([ready, exited]);
  const message = first[0];
  if (message === null || typeof message !== "object") {
    throw new Error(`the ${kind} server exited before it answered`);
  }
  return {
    ...message,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}
