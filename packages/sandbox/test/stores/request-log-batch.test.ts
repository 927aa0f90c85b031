// A batch of the request log as one row's text: every field comes back as it went in, strings
// that need escaping and nulls included, and a batch written in the earlier format still reads.
import { describe, expect, it } from "vitest";
import type { KeptRequest } from "../../src/request-log/index.js";
import { batchEntries, batchText } from "../../src/store/request-log-batch.js";

const plain: KeptRequest = {
  at: 1_800_000_000_123,
  method: "GET",
  path: "/customers",
  operation_id: "listCustomers",
  status: 200,
  duration_ms: 0.417,
  idempotency_key: null,
  replayed: false,
  fault_id: null,
  fault: null,
};

const odd: KeptRequest = {
  at: 1_800_000_000_124,
  method: "POST",
  path: '/customers/"quoted"\\and\u2028line\u0000',
  operation_id: "createCustomer",
  status: null,
  duration_ms: 30_000.001,
  idempotency_key: "kéy-😀-\n",
  replayed: true,
  fault_id: "flt_1",
  fault: "drop_after_commit",
};

describe("a request log batch", () => {
  it("gives back every entry as it was, in order, times out of order included", () => {
    const entries = [plain, odd, { ...plain, at: plain.at - 5_000, status: 404 }, odd];
    expect(batchEntries(batchText(entries))).toEqual(entries);
  });

  it("writes a string once however many entries hold it", () => {
    const text = batchText(Array.from({ length: 100 }, (_, n) => ({ ...plain, at: plain.at + n })));
    expect(text.split("listCustomers")).toHaveLength(2);
  });

  it("gives back no entries for an empty batch", () => {
    expect(batchEntries(batchText([]))).toEqual([]);
  });

  it("reads a batch written in the earlier format, an array of each entry's fields", () => {
    const earlier = JSON.stringify([
      [plain.at, "GET", "/customers", "listCustomers", 200, 0.417, null, false, null, null],
      [
        odd.at,
        odd.method,
        odd.path,
        odd.operation_id,
        null,
        30_000.001,
        odd.idempotency_key,
        true,
        "flt_1",
        "drop_after_commit",
      ],
    ]);
    expect(batchEntries(earlier)).toEqual([plain, odd]);
  });
});
