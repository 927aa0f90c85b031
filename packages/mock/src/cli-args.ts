// What both commands of the CLI (the mock and `proxy`) do with a bad flag: say so, show the
// usage and exit with code 2.

/** A function that prints `message` and `usage` on stderr and exits with code 2. */
export function usageFailure(usage: string): (message: string) => never {
  return (message) => {
    console.error(`payments-mock: ${message}\n\n${usage}`);
    process.exit(2);
  };
}

/** The port in `value` (from `source`, such as `--port` or `PORT`), or a usage failure. */
export function parsePort(value: string, source: string, fail: (message: string) => never): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    fail(`${source} must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}
