// The partners' collections known to be empty, for a store whose data only this process changes
// (SQLite): a create reads the partner's documents and webhooks, which most partners have none
// of, and this spares it those reads. A collection is known empty from a read that found nothing
// in it until something is inserted there, or a transaction fails (its rollback may bring back
// rows it deleted).
import type { CollectionName } from "./sandbox-data.js";

/** At most this many are known; past it, the knowledge starts afresh. */
const KNOWN_MAX = 10_000;

export class EmptyCollections {
  private readonly empty = new Set<string>();

  has(partner: string, collection: CollectionName): boolean {
    return this.empty.has(keyOf(partner, collection));
  }

  /** A read of the whole collection found nothing. */
  found(partner: string, collection: CollectionName): void {
    if (this.empty.size >= KNOWN_MAX) this.empty.clear();
    this.empty.add(keyOf(partner, collection));
  }

  /** Something is inserted into the collection. */
  filled(partner: string, collection: CollectionName): void {
    this.empty.delete(keyOf(partner, collection));
  }

  /** A transaction failed: what it read may not be what the database holds now. */
  forget(): void {
    this.empty.clear();
  }
}

function keyOf(partner: string, collection: CollectionName): string {
  return `${partner}\n${collection}`;
}
