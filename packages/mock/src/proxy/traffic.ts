// The proxy's traffic file (--traffic): a line per request the upstream answered, its operation
// and status, kept apart from the violations of --report. `payments-mock readiness --from` adds
// the lines up by operation and status.
import { createReadStream } from "node:fs";

/** One line of the traffic file: a request the upstream answered. */
export interface TrafficLine {
  type: "exchange";
  /** When it was answered (ISO 8601). */
  time: string;
  /** The request's number in this run of the proxy, as its violations have it. */
  request: number;
  method: string;
  /** The spec's `operationId`, or null when the request matches no operation. */
  operation: string | null;
  /** The status the upstream answered. */
  status: number;
}

/**
 * Far longer than any line the proxy writes: a longer one is no traffic line, and is not held
 * whole in memory to find out.
 */
const LONGEST_LINE = 1 << 20;

/**
 * Calls by operation and status in the traffic file `file`; requests that matched no operation
 * are left out. A file of lines none of which is traffic (a `--report` given by mistake) is
 * refused rather than read as no traffic. The file is read a line at a time: a day of traffic may
 * be larger than a string can hold.
 */
export async function liveCalls(
  file: string,
): Promise<{ operationId: string; status: string; n: number }[]> {
  const calls = new Map<string, { operationId: string; status: string; n: number }>();
  let number = 0;
  let lines = 0;
  let trafficLines = 0;
  /** `unfinished`: the last line, with no newline after it, which may have been cut short. */
  const count = (line: string, unfinished = false) => {
    number += 1;
    if (line.trim() === "") return;
    let record: Partial<TrafficLine>;
    try {
      record = JSON.parse(line) as Partial<TrafficLine>;
    } catch {
      // The proxy stopped (or was killed) while writing it, or is writing it now: not counted.
      if (unfinished) return;
      throw new Error(`line ${number} of the traffic file ${file} is not JSON`);
    }
    lines += 1;
    if (record?.type !== "exchange") return;
    trafficLines += 1;
    if (typeof record.operation !== "string" || typeof record.status !== "number") return;
    const key = `${record.operation} ${record.status}`;
    const known = calls.get(key);
    if (known === undefined) {
      calls.set(key, { operationId: record.operation, status: String(record.status), n: 1 });
    } else known.n += 1;
  };
  let rest = "";
  try {
    for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
      const split = `${rest}${chunk}`.split("\n");
      rest = split.pop() ?? "";
      for (const line of split) count(line);
      if (rest.length > LONGEST_LINE) {
        throw new Error(
          `line ${number + 1} of the traffic file ${file} is longer than ${LONGEST_LINE / 2 ** 20} MiB: give --from the file of the proxy's --traffic`,
        );
      }
    }
  } catch (error) {
    // The file's own errors (not there, a directory, not readable) name it; a line's are named.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    throw new Error(`cannot read the proxy's traffic file ${file}: ${(error as Error).message}`);
  }
  count(rest, true);
  if (lines > 0 && trafficLines === 0) {
    throw new Error(
      `${file} holds no traffic lines ("type": "exchange"): give --from the file of the proxy's --traffic, not its --report of violations`,
    );
  }
  return [...calls.values()];
}
