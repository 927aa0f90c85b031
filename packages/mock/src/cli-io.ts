// What a command of the CLI reads and writes, handed to its `main(argv, io)`: standard output and
// error, the environment, and how it ends early. The process's own for `payments-mock`; a test
// gives its own, and runs the command in its process.

export interface CommandIo {
  /** Writes text to standard output, as it is (no newline added). */
  out(text: string): void;
  /** Writes text to standard error, as it is (no newline added). */
  err(text: string): void;
  /** The environment the command reads (PAYMENTS_API_KEY, PAYMENTS_BASE_URL, …). */
  env: Readonly<Record<string, string | undefined>>;
  /** Ends the command at once with this exit code (help, a usage error, a failure said in words). */
  exit(code: number): never;
}

/** The process's standard output, error and environment; `exit` ends the process. */
export const processIo: CommandIo = {
  out: (text) => {
    process.stdout.write(text);
  },
  err: (text) => {
    process.stderr.write(text);
  },
  env: process.env,
  exit: (code) => process.exit(code),
};

/**
 * Runs a command's main in the process: the exit code it resolves to is the process's, which
 * ends once its work is done (an early end through `io.exit` ends it at once).
 */
export async function runInProcess(
  main: (argv: string[], io: CommandIo) => Promise<number>,
  argv: string[],
): Promise<void> {
  process.exitCode = await main(argv, processIo);
}
