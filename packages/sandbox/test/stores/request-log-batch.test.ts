// A batch of the request log as one row's text: every field comes back as it went in, strings
// that need escaping and nulls included, and a batch written in an earlier format still reads.
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

  it("writes a field once when every entry of the batch has the same, and each entry's otherwise", () => {
    const entries = Array.from({ length: 50 }, (_, n) => ({
      ...plain,
      at: plain.at + n,
      duration_ms: n / 1000,
      request_id: `req_${n}`,
    }));
    const stored = JSON.parse(batchText(entries));
    // at, method, path, operation, status, duration, key, replayed, fault id, fault.
    expect(stored.columns).toEqual([
      [plain.at, ...Array(49).fill(1)],
      0,
      1,
      2,
      200,
      entries.map((_, n) => n),
      -1,
      0,
      -1,
      -1,
    ]);
    expect(batchEntries(batchText(entries))).toEqual(entries);
    const oneOdd = entries.map((entry, n) => (n === 49 ? { ...entry, replayed: true } : entry));
    expect(batchEntries(batchText(oneOdd))).toEqual(oneOdd);
  });

  it("gives back a request id that several entries share, and one alone", () => {
    const entries = [plain, { ...plain, at: plain.at + 1 }, { ...plain, request_id: null }];
    expect(batchEntries(batchText(entries))).toEqual(entries);
    expect(batchEntries(batchText([plain]))).toEqual([plain]);
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

  it("reads a batch of format 3, eleven integers an entry, its request id's index the last", () => {
    const three = JSON.stringify({
      v: 3,
      strings: ["GET", "/customers", "listCustomers", plain.request_id, odd.method, odd.path],
      entries: [
        ...[plain.at, 0, 1, 2, 200, 417, -1, 0, -1, -1, 3],
        ...[1, 4, 5, 2, -1, 30_000_001, -1, 1, -1, -1, -1],
      ],
    });
    expect(batchEntries(three)).toEqual([
      plain,
      {
        ...plain,
        at: plain.at + 1,
        method: odd.method,
        path: odd.path,
        status: null,
        duration_ms: 30_000.001,
        replayed: true,
        request_id: null,
      },
    ]);
  });

  it("reads a batch of format 2, written before the log kept request ids", () => {
    const two = JSON.stringify({
      v: 2,
      strings: ["GET", "/customers", "listCustomers", odd.idempotency_key, "flt_1", odd.fault],
      entries: [
        ...[plain.at, 0, 1, 2, 200, 417, -1, 0, -1, -1],
        ...[1, 0, 1, 2, 503, 1, 3, 1, 4, 5],
      ],
    });
    expect(batchEntries(two)).toEqual([
      { ...plain, request_id: null },
      {
        ...plain,
        at: plain.at + 1,
        status: 503,
        duration_ms: 0.001,
        idempotency_key: odd.idempotency_key,
        replayed: true,
        fault_id: "flt_1",
        fault: odd.fault,
        request_id: null,
      },
    ]);
  });
});
