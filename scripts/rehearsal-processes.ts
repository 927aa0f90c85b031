// The commands the release rehearsal runs: each in a process group of its own, so that stopping
// the rehearsal (a failure, Ctrl-C) stops them with everything they started, and each failure
// says which command failed with the end of what it printed.
import { type ChildProcess, spawn } from "node:child_process";

const running = new Set<ChildProcess>();
/** Set by `stopAll`: from then on no command starts. */
let stopping = false;

/**
 * The environment a package manager runs with: the machine's, less the npm settings that the
 * command running the rehearsal (npm, pnpm) passes down, which would point it elsewhere.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm|pnpm|yarn|bun)_config_/i.test(name)),
  );
  return { ...env, npm_config_update_notifier: "false", SCARF_ANALYTICS: "false", ...extra };
}

/** Runs a command to its end; its stdout, or an error naming it with the end of its output. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (stopping) return reject(new Error(`${command} not started: the rehearsal is stopping`));
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child);
    let stdout = "";
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.on("error", (error) => {
      running.delete(child);
      reject(new Error(`${command} could not start: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      if (stopping) return reject(new Error(`${command} was stopped`));
      if (code === 0) return resolve(stdout);
      const tail = output.trim().split("\n").slice(-40).join("\n");
      reject(
        new Error(
          `${[command, ...args].join(" ")} failed (${signal ?? `exit code ${code}`}) in ${options.cwd}:\n${tail}`,
        ),
      );
    });
  });
}

/** Stops every command still running, with whatever it started (its process group), and waits. */
export async function stopAll(): Promise<void> {
  stopping = true;
  await Promise.all(
    [...running].map((child) => {
      if (!child.pid) return undefined;
      const group = -child.pid;
      const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
      signalGroup(group, "SIGTERM");
      const timer = setTimeout(() => signalGroup(group, "SIGKILL"), 5_000);
      return closed.finally(() => clearTimeout(timer));
    }),
  );
}

/** The last resort, when the process is exiting and cannot wait: kills every group at once. */
export function killAllNow(): void {
  stopping = true;
  for (const child of running) if (child.pid) signalGroup(-child.pid, "SIGKILL");
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch {
    // The group has ended in the meantime.
  }
}
