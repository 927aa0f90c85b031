// The live traffic in a validating proxy's report (--report): its exchange lines, each a request
// the upstream answered, added up by operation and status. Violation lines are passed over.
import type { ExchangeRecord } from "./proxy-handler.js";

/** Calls by operation and status; requests that matched no operation are left out. */
export function liveCalls(report: string): { operationId: string; status: string; n: number }[] {
  const calls = new Map<string, { operationId: string; status: string; n: number }>();
  report.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let record: Partial<ExchangeRecord>;
    try {
      record = JSON.parse(line) as Partial<ExchangeRecord>;
    } catch {
      throw new Error(`line ${index + 1} of the proxy report is not JSON`);
    }
    if (record?.type !== "exchange") return;
    if (typeof record.operation !== "string" || typeof record.status !== "number") return;
    const key = `${record.operation} ${record.status}`;
    const known = calls.get(key);
    if (known === undefined) {
      calls.set(key, { operationId: record.operation, status: String(record.status), n: 1 });
    } else known.n += 1;
  });
  return [...calls.values()];
}
