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
  request_id: "0f8e2d4c-6b1a-4c3e-9d5f-7a9b1c3d5e7f",
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
  request_id: null,
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
    expect(batchEntries(earlier)).toEqual([
      { ...plain, request_id: null },
      { ...odd, request_id: null },
    ]);
  });

  it("reads a batch of format 2, written before the log kept request ids", () => {
    const text = batchText([plain, odd]);
    const stored = JSON.parse(text);
    const entries: number[] = stored.entries;
    // Format 2: the same integers but the last of each entry.
    const two = entries.filter((_, index) => index % 11 !== 10);
    const earlier = JSON.stringify({ v: 2, strings: stored.strings, entries: two });
    expect(batchEntries(earlier)).toEqual([
      { ...plain, request_id: null },
      { ...odd, request_id: null },
    ]);
  });
});
