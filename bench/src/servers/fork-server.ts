// Starts a server of src/servers/serve.ts in a child process; forkReporting starts any of the
// bench's child processes that report themselves (their URL) in a first message.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";

export interface Reported<Message> {
  child: ChildProcess;
  /** The child's first message. */
  message: Message;
  stop(): Promise<void>;
}

/** Forks `script` with `args` and waits for its first message; `what` names it in the error. */
export async function forkReporting<Message extends object>(
  script: URL,
  args: string[],
  what: string,
): Promise<Reported<Message>> {
  const child = fork(script, args, { stdio: "inherit" });
  const exited = once(child, "exit");
  const [message] = (await Promise.race([once(child, "message"), exited])) as [unknown];
  if (message === null || typeof message !== "object") {
    throw new Error(`${what} exited before it answered`);
  }
  return {
    child,
    message: message as Message,
    async stop() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}

type ForkedServer = {
  url: string;
  startToFirstAnswerMs: number;
  pid: number | undefined;
  stop: () => Promise<void>;
};

export async function forkServer(kind: "plain" | "mock" | "sandbox"): Promise<ForkedServer> {
  const { child, message, stop } = await forkReporting<{
    url: string;
    startToFirstAnswerMs: number;
  }>(new URL("./serve.ts", import.meta.url), [kind], `the ${kind} server`);
  return { ...message, pid: child.pid, stop };
}
