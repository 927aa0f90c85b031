// Runs a command of the CLI in this process, by its main(argv, io): what it writes to standard
// output and error, and its exit code, as the process would have them. For the tests of what a
// command decides and prints; each command also runs as the built CLI (run-cli.ts), and every
// test that a key is never printed, or of signals and of the process, runs it there.
import { specPath } from "@org/payments-spec";
import type { CommandIo } from "../../src/cli-io.js";

/** A command's main; `spec` is the API's document, which the sources do not hold a copy of. */
type Main = (argv: string[], io: CommandIo, spec: string) => Promise<number>;

/** Thrown by the test's `io.exit`, as the process would end there. */
class Ended extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`ended with exit code ${code}`);
    this.code = code;
  }
}

/**
 * Runs `main` with `argv` and only `env` for environment; resolves when it has ended. As with
 * the process, nothing is written after the first `io.exit`, whose code is the command's.
 */
export async function runMain(
  main: Main,
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  let ended: number | undefined;
  const io: CommandIo = {
    out: (text) => {
      if (ended === undefined) stdout += text;
    },
    err: (text) => {
      if (ended === undefined) stderr += text;
    },
    env,
    exit: (code) => {
      ended ??= code;
      throw new Ended(ended);
    },
  };
  const code = await main(argv, io, specPath).catch((error: unknown) => {
    if (error instanceof Ended) return error.code;
    throw error;
  });
  return { code: ended ?? code, stdout, stderr };
}
