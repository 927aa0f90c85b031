// A row as a SQL driver returns it, and one statement sent in the current transaction: what the
// SQL stores and their helpers share.
export type Row = Record<string, unknown>;

/** Sends one statement with `$1`-style parameters inside the current transaction. */
export type Query = (text: string, params?: unknown[]) => Promise<Row[]>;
