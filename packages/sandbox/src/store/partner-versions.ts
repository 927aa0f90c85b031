// Each partner's data version in a store only this process writes (memory, a SQLite file): a
// number that moves whenever the partner's data may have changed, so that the answers kept of one
// partner's reads (api/read-cache.ts) stand while other partners write: how long a read takes
// then tells nothing of another key's writes.

/** Partners whose version is known; past this many, they start afresh (each moves on). */
const PARTNERS_KNOWN = 10_000;

export class PartnerVersions {
  private readonly versions = new Map<string, number>();
  /** Every version given so far is at most this: a new one is always above any before it. */
  private stamps = 0;
  /** The version of a partner not in the map: above every version given before it left it. */
  private forgotten = 0;

  /** The partner's version. */
  of(partner: string): number {
    return this.versions.get(partner) ?? this.forgotten;
  }

  /** The partner's data may have changed (a write, a failed transaction, its removal). */
  moved(partner: string): void {
    if (!this.versions.has(partner) && this.versions.size >= PARTNERS_KNOWN) this.movedAll();
    this.versions.set(partner, ++this.stamps);
  }

  /** Every partner's data may have changed. */
  movedAll(): void {
    this.versions.clear();
    this.forgotten = ++this.stamps;
  }
}
