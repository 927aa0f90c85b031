// The proxy's traffic file (--traffic): a line per request the upstream answered, its operation
// and status, kept apart from the violations of --report. `payments-mock readiness --from` adds
// the lines up by operation and status.

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
 * Calls by operation and status in a traffic file's text; requests that matched no operation are
 * left out. `file` names it in errors. A file of lines none of which is traffic (a `--report`
 * given by mistake) is refused rather than read as no traffic.
 */
export function liveCalls(
  text: string,
  file: string,
): { operationId: string; status: string; n: number }[] {
  const calls = new Map<string, { operationId: string; status: string; n: number }>();
  let lines = 0;
  let trafficLines = 0;
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    lines += 1;
    let record: Partial<TrafficLine>;
    try {
      record = JSON.parse(line) as Partial<TrafficLine>;
    } catch {
      throw new Error(`line ${index + 1} of the traffic file ${file} is not JSON`);
    }
    if (record?.type !== "exchange") return;
    trafficLines += 1;
    if (typeof record.operation !== "string" || typeof record.status !== "number") return;
    const key = `${record.operation} ${record.status}`;
    const known = calls.get(key);
    if (known === undefined) {
      calls.set(key, { operationId: record.operation, status: String(record.status), n: 1 });
    } else known.n += 1;
  });
  if (lines > 0 && trafficLines === 0) {
    throw new Error(
      `${file} holds no traffic lines ("type": "exchange"): give --from the file of the proxy's --traffic, not its --report of violations`,
    );
  }
  return [...calls.values()];
}
