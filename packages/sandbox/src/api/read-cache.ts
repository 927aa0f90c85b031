// Answers of reads, kept until the partner's data changes. A sandbox whose data only this process
// changes (memory, a SQLite file) knows every change to it: each partner's version moves with its
// writes. The same read with nothing of the partner's written since gets the same answer without a
// transaction, as a partner's test that polls a list until a status shows costs a lookup per
// poll; another partner's writes leave it kept, so that how long a read takes tells nothing of
// another key's writes.
import type { operations } from "@org/payments-types";
import type { Answer } from "../answers/answer.js";
import { JsonText } from "../json/json-text.js";
import type { SandboxStore } from "../store/store.js";

/**
 * The operations whose answer is made from the stored data alone: not from the clock (a quote,
 * a rate), and changing nothing an answer shows.
 */
const READS = new Set<keyof operations>([
  "listCustomers",
  "listSignings",
  "listUnsignedDocuments",
  "listDocuments",
  "getAutorampByExternalId",
  "listAutorampTransactions",
  "listAutorampTransactionsByIds",
  "listFiatAddresses",
  "listFiatAddressesByCustomer",
  "getFiatAddress",
  "listFeeProfiles",
  "listWebhooks",
]);

/**
 * At most this many answers, of about this many characters in all, are kept; past either, the
 * cache starts afresh.
 */
const MAX_ANSWERS = 1_000;
const MAX_CHARACTERS = 16 * 1024 * 1024;
/** What an answer whose body is not yet text is counted as. */
const OBJECT_CHARACTERS = 1_024;

/** A read as its answer depends on it: the partner, the operation, its parameters and the caller's scope. */
export interface Read {
  partner: string;
  operationId: string | undefined;
  params: Record<string, string>;
  query: Record<string, string>;
  scope: string | undefined;
}

/** A kept answer, and the partner's version it was read at. */
interface Kept<T> {
  made: T;
  version: number;
  characters: number;
}

/** Keeps what a read made: its answer, with whatever else came of it. */
export class ReadCache<T extends { answer: Answer }> {
  private readonly store: SandboxStore;
  private readonly answers = new Map<string, Kept<T>>();
  private characters = 0;

  constructor(store: SandboxStore) {
    this.store = store;
  }

  /** What `read` made: the kept one while the partner's data stands, else what `work` makes. */
  async answer(read: Read, work: () => Promise<T>): Promise<T> {
    const before = this.store.version(read.partner);
    if (before === undefined || !READS.has(read.operationId as keyof operations)) return work();
    const key = keyOf(read);
    const kept = this.answers.get(key);
    if (kept !== undefined) {
      if (kept.version === before) return kept.made;
      this.answers.delete(key);
      this.characters -= kept.characters;
    }
    const made = await work();
    const { answer } = made;
    // Kept only when nothing of the partner's was written while it was read, and so it is what
    // its data answers (a version never comes back: a later one is always a new number).
    if (this.store.version(read.partner) === before) {
      const characters =
        answer.body instanceof JsonText ? answer.body.text.length : OBJECT_CHARACTERS;
      if (this.answers.size >= MAX_ANSWERS || this.characters + characters > MAX_CHARACTERS) {
        this.clear();
      }
      const replaced = this.answers.get(key);
      if (replaced !== undefined) this.characters -= replaced.characters;
      this.answers.set(key, { made, version: before, characters });
      this.characters += characters;
    }
    return made;
  }

  private clear(): void {
    this.answers.clear();
    this.characters = 0;
  }
}

function keyOf({ partner, operationId, params, query, scope }: Read): string {
  return JSON.stringify([partner, operationId, params, query, scope ?? null]);
}
