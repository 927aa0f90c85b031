// A batch of a partner's request log as one row's text: its strings once each, and every entry as
// ten integers (a string by its index among them, its time by how far it is from the entry
// before). Every API request is logged, and writing an entry's fields as JSON values cost a
// first page about 3 % more: a batch repeats the same method, path and operation in nearly every
// entry, and small integers are what JSON writes fastest. A batch written before this format (an
// array of entries, each an array of its fields) is still read.
import type { KeptRequest } from "../request-log/index.js";

/**
 * What a batch's text holds: its format, its strings, and ENTRY_WIDTH integers per entry, the
 * first of them its `at` less the entry before's (the first entry's, less 0).
 */
interface StoredBatch {
  /** 2: ENTRY_WIDTH_2 integers an entry, without the request id; 3: ENTRY_WIDTH. */
  v: 2 | 3;
  strings: string[];
  entries: number[];
}

/** An entry in the format before this one: its fields in this order. */
type EarlierEntry = [
  at: number,
  method: string,
  path: string,
  operationId: string,
  status: number | null,
  durationMs: number,
  idempotencyKey: string | null,
  replayed: boolean,
  faultId: string | null,
  fault: KeptRequest["fault"],
];

const ENTRY_WIDTH = 11;
/** An entry's integers in a batch of format 2, written before the log kept request ids. */
const ENTRY_WIDTH_2 = 10;
/** A null string or status. */
const NONE = -1;

export function batchText(entries: readonly KeptRequest[]): string {
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const indexOf = (text: string | null): number => {
    if (text === null) return NONE;
    let index = indexes.get(text);
    if (index === undefined) {
      index = strings.push(text) - 1;
      indexes.set(text, index);
    }
    return index;
  };
  const numbers = new Array<number>(entries.length * ENTRY_WIDTH);
  let at = 0;
  let before = 0;
  for (const entry of entries) {
    numbers[at++] = entry.at - before;
    before = entry.at;
    numbers[at++] = indexOf(entry.method);
    numbers[at++] = indexOf(entry.path);
    numbers[at++] = indexOf(entry.operation_id);
    numbers[at++] = entry.status ?? NONE;
    // Microseconds, whole: the log keeps a duration to the microsecond.
    numbers[at++] = Math.round(entry.duration_ms * 1000);
    numbers[at++] = indexOf(entry.idempotency_key);
    numbers[at++] = entry.replayed ? 1 : 0;
    numbers[at++] = indexOf(entry.fault_id);
    numbers[at++] = indexOf(entry.fault);
    numbers[at++] = indexOf(entry.request_id);
  }
  return JSON.stringify({ v: 3, strings, entries: numbers } satisfies StoredBatch);
}

export function batchEntries(text: string): KeptRequest[] {
  const stored = JSON.parse(text) as StoredBatch | EarlierEntry[];
  if (Array.isArray(stored)) return stored.map(earlierEntry);
  const { strings, entries: numbers } = stored;
  const width = stored.v === 2 ? ENTRY_WIDTH_2 : ENTRY_WIDTH;
  const stringAt = (index: number | undefined) =>
    index === undefined || index === NONE ? null : (strings[index] ?? null);
  const entries: KeptRequest[] = [];
  let time = 0;
  for (let at = 0; at + width <= numbers.length; at += width) {
    const status = numbers[at + 4] as number;
    time += numbers[at] as number;
    entries.push({
      at: time,
      method: stringAt(numbers[at + 1]) ?? "",
      path: stringAt(numbers[at + 2]) ?? "",
      operation_id: stringAt(numbers[at + 3]) ?? "",
      status: status === NONE ? null : status,
      duration_ms: (numbers[at + 5] as number) / 1000,
      idempotency_key: stringAt(numbers[at + 6]),
      replayed: numbers[at + 7] === 1,
      fault_id: stringAt(numbers[at + 8]),
      fault: stringAt(numbers[at + 9]) as KeptRequest["fault"],
      request_id: width === ENTRY_WIDTH ? stringAt(numbers[at + 10]) : null,
    });
  }
  return entries;
}

function earlierEntry(row: EarlierEntry): KeptRequest {
  const [at, method, path, operation_id, status, duration_ms, idempotency_key, replayed] = row;
  return {
    at,
    method,
    path,
    operation_id,
    status,
    duration_ms,
    idempotency_key,
    replayed,
    fault_id: row[8],
    fault: row[9],
    request_id: null,
  };
}
