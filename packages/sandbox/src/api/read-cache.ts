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
 * At most this many answers, of about this many characters in all, are kept of each partner; past
 * either, the partner's own oldest answers go, so that one key's many reads never drop another's
 * answers (the time of B's reads tells nothing of A's).
 */
const MAX_ANSWERS = 100;
const MAX_CHARACTERS = 512 * 1024;
/**
 * And about this many characters for every partner together, so that many keys cannot hold the
 * process's memory: past it, the answers that go are those of the partner holding the most.
 */
const MAX_TOTAL_CHARACTERS = 32 * 1024 * 1024;
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

/** A kept answer, and its size as counted. */
interface Kept<T> {
  made: T;
  characters: number;
}

/** A partner's kept answers (oldest first), all read at the partner's version `version`. */
interface PartnerAnswers<T> {
  version: number;
  answers: Map<string, Kept<T>>;
  characters: number;
}

/** Keeps what a read made: its answer, with whatever else came of it. */
export class ReadCache<T extends { answer: Answer }> {
  private readonly store: SandboxStore;
  private readonly partners = new Map<string, PartnerAnswers<T>>();
  private readonly maxTotal: number;
  /** The characters kept of every partner. */
  private total = 0;

  constructor(store: SandboxStore, maxTotalCharacters = MAX_TOTAL_CHARACTERS) {
    this.store = store;
    this.maxTotal = maxTotalCharacters;
  }

  /** What `read` made: the kept one while the partner's data stands, else what `work` makes. */
  async answer(read: Read, work: () => Promise<T>): Promise<T> {
    const before = this.store.version(read.partner);
    if (before === undefined || !READS.has(read.operationId as keyof operations)) return work();
    const key = keyOf(read);
    const kept = this.partners.get(read.partner);
    if (kept?.version === before) {
      const answer = kept.answers.get(key);
      if (answer !== undefined) return answer.made;
    }
    const made = await work();
    // Kept only when nothing of the partner's was written while it was read, and so it is what
    // its data answers (a version never comes back: a later one is always a new number).
    if (this.store.version(read.partner) === before) this.keep(read.partner, before, key, made);
    return made;
  }

  /** Drops what is kept of `partners` (gone from this process). */
  forget(partners: Iterable<string>): void {
    for (const partner of partners) this.drop(partner);
  }

  private keep(partner: string, version: number, key: string, made: T): void {
    const { body } = made.answer;
    const characters = body instanceof JsonText ? body.text.length : OBJECT_CHARACTERS;
    if (characters > MAX_CHARACTERS) return;
    let own = this.partners.get(partner);
    // Every answer kept at an older version is stale: the partner's data has moved since.
    if (own === undefined || own.version !== version) {
      this.drop(partner);
      own = { version, answers: new Map(), characters: 0 };
      this.partners.set(partner, own);
    }
    const replaced = own.answers.get(key);
    if (replaced !== undefined) this.remove(own, key, replaced.characters);
    // The partner's own oldest make room.
    for (const [oldest, answer] of own.answers) {
      if (own.answers.size < MAX_ANSWERS && own.characters + characters <= MAX_CHARACTERS) break;
      this.remove(own, oldest, answer.characters);
    }
    // Then, past the total, the oldest of whoever holds the most.
    while (this.total + characters > this.maxTotal) {
      const largest = this.largest();
      const oldest = largest?.answers.entries().next().value;
      if (largest === undefined || oldest === undefined) break;
      this.remove(largest, oldest[0], oldest[1].characters);
    }
    own.answers.set(key, { made, characters });
    own.characters += characters;
    this.total += characters;
  }

  private remove(own: PartnerAnswers<T>, key: string, characters: number): void {
    own.answers.delete(key);
    own.characters -= characters;
    this.total -= characters;
  }

  private drop(partner: string): void {
    this.total -= this.partners.get(partner)?.characters ?? 0;
    this.partners.delete(partner);
  }

  /** The partner whose kept answers take the most characters. */
  private largest(): PartnerAnswers<T> | undefined {
    let largest: PartnerAnswers<T> | undefined;
    for (const own of this.partners.values()) {
      if (own.characters > (largest?.characters ?? 0)) largest = own;
    }
    return largest;
  }
}

function keyOf({ partner, operationId, params, query, scope }: Read): string {
  return JSON.stringify([partner, operationId, params, query, scope ?? null]);
}
