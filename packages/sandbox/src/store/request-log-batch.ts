// A batch of a partner's request log as one row's text: its strings once each, its request ids in
// order, and every other field as a column of integers (a string by its index among them, a time
// by how far it is from the entry before's), written once when every entry of the batch has the
// same. Every API request is logged, and JSON writes small integers fastest and fewest fastest of
// all: a batch repeats the same method, path, operation and status in nearly every entry, and an
// entry of a first page then costs two integers and its id (eleven integers, before, cost a first
// page of customers about 1 % more). Batches written in the earlier formats (3 and 2: eleven and
// ten integers an entry; an array of entries, each an array of its fields) are still read.
import type { KeptRequest } from "../request-log/index.js";

/**
 * What a batch's text holds: its format, its strings, each entry's request id, and a column per
 * field of COLUMNS, in that order: the field's integer for every entry, or the one integer every
 * entry has. The `at` column holds an entry's `at` less the entry before's (the first's, less 0).
 */
interface ColumnBatch {
  v: 4;
  strings: string[];
  ids: (string | null)[];
  columns: (number | number[])[];
}

/** A batch of format 2 or 3: ENTRY_WIDTH_2 or ENTRY_WIDTH integers an entry, in COLUMNS order and the request id's index. */
interface RowBatch {
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

/** The fields a batch keeps as integers, in the order of its columns (and of an entry's integers in formats 2 and 3). */
const COLUMNS = [
  "at",
  "method",
  "path",
  "operation_id",
  "status",
  "duration_us",
  "idempotency_key",
  "replayed",
  "fault_id",
  "fault",
] as const;
type Column = (typeof COLUMNS)[number];
/** An entry's integers in a batch of format 3: the columns' and its request id's index. */
const ENTRY_WIDTH = 11;
/** An entry's integers in a batch of format 2, written before the log kept request ids. */
const ENTRY_WIDTH_2 = 10;
/** A null string or status. */
const NONE = -1;

export function batchText(entries: readonly KeptRequest[]): string {
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  /** A string field's index among `strings`, looked up only when it is not the entry before's. */
  const stringField = () => {
    let last: string | null = null;
    let lastIndex = NONE;
    return (text: string | null): number => {
      if (text === last) return lastIndex;
      last = text;
      lastIndex = text === null ? NONE : (indexes.get(text) ?? added(text));
      return lastIndex;
    };
  };
  const added = (text: string): number => {
    const index = strings.push(text) - 1;
    indexes.set(text, index);
    return index;
  };
  const method = stringField();
  const path = stringField();
  const operation = stringField();
  const key = stringField();
  const faultId = stringField();
  const fault = stringField();
  const count = entries.length;
  const columns = Object.fromEntries(
    COLUMNS.map((name) => [name, new Array<number>(count)]),
  ) as Record<Column, number[]>;
  const ids = new Array<string | null>(count);
  let before = 0;
  for (let n = 0; n < count; n++) {
    const entry = entries[n] as KeptRequest;
    columns.at[n] = entry.at - before;
    before = entry.at;
    columns.method[n] = method(entry.method);
    columns.path[n] = path(entry.path);
    columns.operation_id[n] = operation(entry.operation_id);
    columns.status[n] = entry.status ?? NONE;
    // Microseconds, whole: the log keeps a duration to the microsecond.
    columns.duration_us[n] = Math.round(entry.duration_ms * 1000);
    columns.idempotency_key[n] = key(entry.idempotency_key);
    columns.replayed[n] = entry.replayed ? 1 : 0;
    columns.fault_id[n] = faultId(entry.fault_id);
    columns.fault[n] = fault(entry.fault);
    ids[n] = entry.request_id;
  }
  return JSON.stringify({
    v: 4,
    strings,
    ids,
    columns: COLUMNS.map((name) => {
      const column = columns[name];
      return count > 0 && isConstant(column) ? (column[0] as number) : column;
    }),
  } satisfies ColumnBatch);
}

/** Every integer of the column is its first. */
function isConstant(column: readonly number[]): boolean {
  const first = column[0];
  for (const value of column) if (value !== first) return false;
  return true;
}

export function batchEntries(text: string): KeptRequest[] {
  const stored = JSON.parse(text) as ColumnBatch | RowBatch | EarlierEntry[];
  if (Array.isArray(stored)) return stored.map(earlierEntry);
  const { strings } = stored;
  const stringAt = (index: number | undefined) =>
    index === undefined || index === NONE ? null : (strings[index] ?? null);
  const { count, value, requestId } = stored.v === 4 ? columnsOf(stored) : rowsOf(stored, stringAt);
  const entries: KeptRequest[] = [];
  let time = 0;
  for (let n = 0; n < count; n++) {
    const status = value(n, "status");
    time += value(n, "at");
    entries.push({
      at: time,
      method: stringAt(value(n, "method")) ?? "",
      path: stringAt(value(n, "path")) ?? "",
      operation_id: stringAt(value(n, "operation_id")) ?? "",
      status: status === NONE ? null : status,
      duration_ms: value(n, "duration_us") / 1000,
      idempotency_key: stringAt(value(n, "idempotency_key")),
      replayed: value(n, "replayed") === 1,
      fault_id: stringAt(value(n, "fault_id")),
      fault: stringAt(value(n, "fault")) as KeptRequest["fault"],
      request_id: requestId(n),
    });
  }
  return entries;
}

/** How a stored batch is read: its entries, the `n`th one's integer of a column, its request id. */
interface StoredEntries {
  count: number;
  value(n: number, column: Column): number;
  requestId(n: number): string | null;
}

function columnsOf({ ids, columns }: ColumnBatch): StoredEntries {
  return {
    count: ids.length,
    value: (n, name) => {
      const column = columns[COLUMNS.indexOf(name)];
      return (typeof column === "number" ? column : column?.[n]) ?? NONE;
    },
    requestId: (n) => ids[n] ?? null,
  };
}

function rowsOf(
  { v, entries }: RowBatch,
  stringAt: (index: number | undefined) => string | null,
): StoredEntries {
  const width = v === 2 ? ENTRY_WIDTH_2 : ENTRY_WIDTH;
  return {
    count: Math.floor(entries.length / width),
    value: (n, name) => entries[n * width + COLUMNS.indexOf(name)] ?? NONE,
    // Format 3's last integer: the request id's index among the strings.
    requestId: (n) =>
      width === ENTRY_WIDTH ? stringAt(entries[n * width + COLUMNS.length]) : null,
  };
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
