// A partner's readiness counters: what its integration has done, kept as counts keyed by what was
// done (an operation and the status it answered, a topic delivered, a state reached), updated as
// it happens, so that a readiness report reads a few hundred rows however much traffic there was.
// They outlive a reset (a suite that resets between tests adds up), and go with the partner.
import {
  type CountKind,
  type CountRows,
  counterKey,
  merged,
  type ReadinessCount,
} from "../readiness/readiness-rows.js";
import type { Query } from "./sql-query.js";

export const READINESS_COUNTS_TABLE = `CREATE TABLE readiness_counts (
  partner TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  detail TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (partner, kind, name, detail)
)`;

/** How a statement changes a counter it finds, and how two rows of one counter become one. */
interface Update {
  set: string;
  combine: (a: number, b: number) => number;
}

/** Adds a row's n to its counter, making it when it is new. */
const ADD_COUNT: Update = {
  set: "SET n = readiness_counts.n + excluded.n",
  combine: (a, b) => a + b,
};

/** Raises a counter to a row's n unless it is higher already, making it when it is new. */
const RAISE_COUNT: Update = {
  set: "SET n = CASE WHEN readiness_counts.n > excluded.n THEN readiness_counts.n ELSE excluded.n END",
  combine: Math.max,
};

/** At most this many counters a statement: its parameters stay within the databases' limits. */
const COUNTS_PER_STATEMENT = 100;

/**
 * One statement writing `rows` counters of the partner `$1` (four parameters a row after it), as
 * `update` says: a delivery's counters cost one statement, not one each.
 */
function upsertCounts(rows: number, update: string): string {
  const values = Array.from(
    { length: rows },
    (_, row) => `($1, $${4 * row + 2}, $${4 * row + 3}, $${4 * row + 4}, $${4 * row + 5})`,
  ).join(", ");
  return `INSERT INTO readiness_counts (partner, kind, name, detail, n) VALUES ${values}
  ON CONFLICT (partner, kind, name, detail) DO UPDATE ${update}`;
}

/** The counters of a sandbox that keeps none (measuring what they cost): nothing written or read. */
export const NO_COUNT_ROWS: CountRows = {
  addCounts: async () => {},
  raiseCounts: async () => {},
  markCounts: async () => {},
  removeCounts: async () => {},
  counts: async () => [],
  countsOf: async () => [],
};

/**
 * The rows in a fixed order, so that two transactions take their locks (Postgres) alike, each
 * counter once (`combine` makes one row of two): a statement may not change a row twice.
 */
function ordered(
  counts: readonly ReadinessCount[],
  combine: (a: number, b: number) => number,
): ReadinessCount[] {
  return merged(counts, combine).sort((a, b) =>
    counterKey(a) < counterKey(b) ? -1 : counterKey(a) > counterKey(b) ? 1 : 0,
  );
}

/**
 * The counters a store of this process's only (SQLite) knows are marked, so that a state reached
 * again writes nothing. Like EmptyCollections: forgotten when a transaction fails (its rollback
 * may undo a mark) and when partners are purged.
 */
export class MarkedCounts {
  private readonly marked = new Map<string, Set<string>>();
  private size = 0;

  has(partner: string, count: ReadinessCount): boolean {
    return this.marked.get(partner)?.has(counterKey(count)) === true;
  }

  add(partner: string, counts: readonly ReadinessCount[]): void {
    if (this.size >= MARKED_MAX) this.forget();
    const known = this.marked.get(partner) ?? new Set<string>();
    this.marked.set(partner, known);
    for (const count of counts) known.add(counterKey(count));
    this.size += counts.length;
  }

  forgetPartner(partner: string): void {
    this.marked.delete(partner);
  }

  forget(): void {
    this.marked.clear();
    this.size = 0;
  }
}

/** At most this many marks are known; past it, the knowledge starts afresh. */
const MARKED_MAX = 100_000;

export function countRows(query: Query, partner: string, marked?: MarkedCounts): CountRows {
  const write = async (update: Update, counts: readonly ReadinessCount[]) => {
    const rows = ordered(counts, update.combine);
    for (let start = 0; start < rows.length; start += COUNTS_PER_STATEMENT) {
      const part = rows.slice(start, start + COUNTS_PER_STATEMENT);
      await query(upsertCounts(part.length, update.set), [
        partner,
        ...part.flatMap(({ kind, name, detail, n }) => [kind, name, detail, n]),
      ]);
    }
  };
  const read = async (where: string, params: unknown[]) => {
    const rows = await query(
      `SELECT kind, name, detail, n FROM readiness_counts WHERE partner = $1${where}`,
      [partner, ...params],
    );
    return rows.map((row) => ({
      kind: String(row.kind) as CountKind,
      name: String(row.name),
      detail: String(row.detail),
      n: Number(row.n),
    }));
  };
  return {
    addCounts: (counts) => write(ADD_COUNT, counts),
    raiseCounts: (counts) => write(RAISE_COUNT, counts),
    async markCounts(counts) {
      const fresh = marked === undefined ? counts : counts.filter((c) => !marked.has(partner, c));
      if (fresh.length === 0) return;
      await write(
        RAISE_COUNT,
        fresh.map((count) => ({ ...count, n: 1 })),
      );
      marked?.add(partner, fresh);
    },
    async removeCounts(kind, names) {
      for (const name of [...names].sort()) {
        await query("DELETE FROM readiness_counts WHERE partner = $1 AND kind = $2 AND name = $3", [
          partner,
          kind,
          name,
        ]);
      }
    },
    counts: () => read("", []),
    countsOf: (kind) => read(" AND kind = $2", [kind]),
  };
}

/**
 * Counts as one JSON parameter of json_to_recordset, in the order their locks are taken, each
 * counter once (added, unless `update` says otherwise).
 */
export function countsParameter(
  counts: readonly ReadinessCount[],
  update: Update = ADD_COUNT,
): string {
  return JSON.stringify(ordered(counts, update.combine));
}

/**
 * Adds many counts in one statement (Postgres: a clock batch's counts, sent as one JSON
 * parameter, as its events are).
 */
export async function addCountsAtOnce(
  query: Query,
  partner: string,
  counts: readonly ReadinessCount[],
  how: "add" | "mark" = "add",
): Promise<void> {
  if (counts.length === 0) return;
  const update = how === "add" ? ADD_COUNT : RAISE_COUNT;
  const rows = how === "add" ? counts : counts.map((count) => ({ ...count, n: 1 }));
  await query(
    `INSERT INTO readiness_counts (partner, kind, name, detail, n)
     SELECT CAST($1 AS TEXT), v.kind, v.name, v.detail, v.n
     FROM json_to_recordset($2::json) AS v(kind text, name text, detail text, n bigint)
     ON CONFLICT (partner, kind, name, detail) DO UPDATE ${update.set}`,
    [partner, countsParameter(rows, update)],
  );
}
