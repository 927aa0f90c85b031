// The sandbox's data in plain JavaScript, for a browser page (the in-page sandbox, MSW's
// setupWorker), where there is no node:sqlite: the same store contract as SQLite's, kept in maps.
// One page owns it, so its transactions run one after another; each works on a copy of what it
// changes of its partner's data (copied at its first change), which replaces the partner's data
// when it commits and is dropped when it throws.
import { realNow } from "../clock/index.js";
import type { StoredFault, StoredRateLimit } from "../faults/index.js";
import { JsonText } from "../json/json-text.js";
import type { PageSource, Positioned } from "../json/pages.js";
import { page } from "../json/pages.js";
import { type CountKind, counterKey, type ReadinessCount } from "../readiness/readiness-rows.js";
import type { KeptRequest, LoggedRequest, RequestLogFilter } from "../request-log/index.js";
import { LOGGED_EVENTS_KEPT, type NewLoggedEvent, TRIM_EVERY } from "./event-log-rows.js";
import { EventsCommitted } from "./events-committed.js";
import { EXAMPLE_PARTNER_ID } from "./partner.js";
import { PartnerVersions } from "./partner-versions.js";
import { batchEntries, batchText } from "./request-log-batch.js";
import { keptBy, listedAt, PLACES_PER_BATCH } from "./request-log-rows.js";
import {
  answerRecordJson,
  type CollectionName,
  type IdempotentAnswer,
  type SandboxData,
  type Stored,
} from "./sandbox-data.js";
import type { SettingName } from "./settings.js";
import { ABANDONED_CLAIM_MS, indexedColumns } from "./sql-store.js";
import {
  EVENTS_KEPT,
  type EventLogFilter,
  type JobKind,
  KEY_RETENTION_MS,
  type ListFilter,
  type LoggedAttempt,
  PartnerLimitError,
  type PartnerRoom,
  REQUESTS_KEPT,
  type SandboxStore,
  type ScheduledJob,
  type StoreTransaction,
} from "./store.js";

interface ResourceRow {
  seq: number;
  id: string;
  subPartnerId: string | null;
  /** The customer it was created for, where the resource does not say so itself. */
  linkedCustomer: string | null;
  /** Its own customer_id, or the linked one. */
  customerId: string | null;
  externalId: string | null;
  /** id, name, email and external_id, lower case. */
  search: string;
  body: string;
}

interface KeyRow {
  method: string;
  path: string;
  fingerprint: string;
  answer: string | null;
  createdAt: number;
}

/** A delivery attempt: `n` counts the partner's attempts, `seq` all of the store's. */
interface AttemptRow {
  n: number;
  seq: number;
  body: string;
}

interface LoggedEventRow {
  n: number;
  id: string;
  topic: string;
  customerId: string | null;
  body: string;
}

interface JobRow {
  seq: number;
  dueAt: number;
  kind: JobKind;
  subject: string;
  body: string;
}

/** A batch of the request log, kept as its text, as SQL keeps it (batchText: what is kept of each request). */
interface RequestBatch {
  seq: number;
  count: number;
  text: string;
}

interface FaultRow extends StoredFault {
  seq: number;
}

interface RateRow extends StoredRateLimit {
  tatUs: number;
}

/** Everything the store keeps of one partner. Containers are replaced, never changed in place, once committed. */
interface PartnerData {
  clock: { offsetMs: number; seenAt: number; faultsVersion: number } | undefined;
  resources: Map<CollectionName, Map<string, ResourceRow>>;
  keys: Map<string, KeyRow>;
  attempts: AttemptRow[];
  eventLog: LoggedEventRow[];
  lastCursor: number;
  jobs: Map<number, JobRow>;
  settings: Map<string, string>;
  requests: RequestBatch[];
  faults: FaultRow[];
  rateLimit: RateRow | undefined;
  counts: Map<string, ReadinessCount>;
}

/** What a reset (replaceAll) and a purge empty: everything but the clock, the cursor and the counters. */
function emptyData(): Omit<PartnerData, "clock" | "lastCursor" | "counts"> {
  return {
    resources: new Map(),
    keys: new Map(),
    attempts: [],
    eventLog: [],
    jobs: new Map(),
    settings: new Map(),
    requests: [],
    faults: [],
    rateLimit: undefined,
  };
}

function newPartner(): PartnerData {
  return { clock: undefined, lastCursor: 0, counts: new Map(), ...emptyData() };
}

/** The fields a transaction copies before it changes them (the containers). */
type Copied = Exclude<keyof PartnerData, "clock" | "lastCursor" | "rateLimit">;

/** A claim purges old keys at most this often. */
const PURGE_EVERY_MS = 1_000;

/**
 * Opens a store in memory, whose example partner starts with `initial`'s data. `counting` false
 * keeps no readiness counters.
 */
export async function openMemoryStore(
  initial: () => SandboxData,
  { counting = true }: { counting?: boolean } = {},
): Promise<SandboxStore> {
  const partners = new Map<string, PartnerData>();
  const sequences = { resources: 0, attempts: 0, jobs: 0, faults: 0 };
  const next = (table: keyof typeof sequences) => ++sequences[table];
  const committed = new EventsCommitted();
  const versions = new PartnerVersions();
  let lastPurge = Number.NEGATIVE_INFINITY;
  let tail: Promise<unknown> = Promise.resolve();
  /** Runs `work` after everything queued before it. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => {});
    return run;
  };

  /** A transaction's view of one partner: its data, copied as it is changed. */
  function draftOf(partner: string) {
    const base = partners.get(partner) ?? newPartner();
    const data: PartnerData = { ...base };
    const copied = new Set<string>();
    /** Removals of other partners (eviction), done when the transaction commits. */
    const removed: string[] = [];
    const pending: NewLoggedEvent[] = [];
    let wrote = false;
    const own = <K extends Copied>(field: K): PartnerData[K] => {
      if (field !== "requests" && field !== "counts") wrote = true;
      if (!copied.has(field)) {
        copied.add(field);
        const value = data[field];
        data[field] = (
          Array.isArray(value) ? [...value] : new Map(value as Map<unknown, unknown>)
        ) as PartnerData[K];
      }
      return data[field];
    };
    const collection = (name: CollectionName, write: boolean): Map<string, ResourceRow> => {
      if (!write) return data.resources.get(name) ?? new Map();
      const resources = own("resources");
      const key = `resources:${name}`;
      if (!copied.has(key) || !resources.has(name)) {
        copied.add(key);
        resources.set(name, new Map(resources.get(name)));
      }
      return resources.get(name) as Map<string, ResourceRow>;
    };
    const setClock = (clock: PartnerData["clock"]) => {
      wrote = true;
      data.clock = clock;
    };
    const bumpFaults = () => {
      if (data.clock !== undefined) {
        setClock({ ...data.clock, faultsVersion: data.clock.faultsVersion + 1 });
      }
    };
    return {
      data,
      removed,
      pending,
      wrote: () => wrote,
      own,
      collection,
      setClock,
      bumpFaults,
    };
  }
  type Draft = ReturnType<typeof draftOf>;

  function matching(rows: Iterable<ResourceRow>, filter: ListFilter): ResourceRow[] {
    const term = filter.search?.toLowerCase();
    const kept: ResourceRow[] = [];
    for (const row of rows) {
      if (filter.scope !== undefined && row.subPartnerId !== filter.scope) continue;
      if (filter.customerId !== undefined && row.customerId !== filter.customerId) continue;
      if (filter.externalId !== undefined && row.externalId !== filter.externalId) continue;
      if (term !== undefined && !row.search.includes(term)) continue;
      kept.push(row);
    }
    return kept;
  }

  const storedOf = (row: ResourceRow): Stored => {
    const stored: Stored = { resource: JSON.parse(row.body), sub_partner_id: row.subPartnerId };
    if (row.linkedCustomer !== null) stored.customer_id = row.linkedCustomer;
    return stored;
  };

  function transactionOf(partner: string, draft: Draft): StoreTransaction {
    const { data } = draft;
    const insert = (
      name: CollectionName,
      resource: Stored["resource"],
      scope: string | undefined,
      customerId?: string,
    ) => {
      const [customer, externalId, search, body] = indexedColumns(resource, customerId);
      draft.collection(name, true).set(resource.id, {
        seq: next("resources"),
        id: resource.id,
        subPartnerId: scope ?? null,
        linkedCustomer: customerId ?? null,
        customerId: customer,
        externalId,
        search,
        body,
      });
      return body;
    };
    const recordEvent = (event: unknown) => {
      const attempts = draft.own("attempts");
      const n = (attempts.at(-1)?.n ?? 0) + 1;
      attempts.push({ n, seq: next("attempts"), body: JSON.stringify(event) });
      const oldest = n - EVENTS_KEPT;
      if (oldest > 0 && (attempts[0]?.n ?? 0) <= oldest) {
        data.attempts = attempts.filter((attempt) => attempt.n > oldest);
      }
    };
    const fill = async (filled: SandboxData) => {
      for (const [name, list] of Object.entries(filled.collections)) {
        for (const stored of list) {
          insert(
            name as CollectionName,
            stored.resource,
            stored.sub_partner_id ?? undefined,
            stored.customer_id,
          );
        }
      }
      const now = realNow(); // keys age on the wall clock (see claimKey)
      for (const [key, first] of Object.entries(filled.idempotency)) {
        draft
          .own("keys")
          .set(key, { ...firstOf(first), answer: JSON.stringify(first.answer), createdAt: now });
      }
      for (const event of filled.events) recordEvent(event);
      for (const [name, value] of Object.entries(filled.settings ?? {})) {
        draft.own("settings").set(name, value);
      }
    };
    const counts = (kind?: CountKind) =>
      [...data.counts.values()]
        .filter((count) => kind === undefined || count.kind === kind)
        .sort((a, b) => (counterKey(a) < counterKey(b) ? -1 : 1))
        .map((count) => ({ ...count }));
    const writeCounts = (list: readonly ReadinessCount[], how: "add" | "raise") => {
      if (!counting || list.length === 0) return;
      const own = draft.own("counts");
      for (const count of list) {
        const key = counterKey(count);
        const known = own.get(key);
        const n =
          known === undefined
            ? count.n
            : how === "add"
              ? known.n + count.n
              : Math.max(known.n, count.n);
        own.set(key, { kind: count.kind, name: count.name, detail: count.detail, n });
      }
    };
    const tx: StoreTransaction = {
      async find(name, id, scope) {
        const row = draft.collection(name, false).get(id);
        if (row === undefined || (scope !== undefined && row.subPartnerId !== scope))
          return undefined;
        return storedOf(row);
      },
      async insert(name, resource, scope, customerId) {
        return new JsonText(insert(name, resource, scope, customerId));
      },
      async update(name, resource) {
        const rows = draft.collection(name, true);
        const row = rows.get(resource.id);
        if (row === undefined) return;
        const [customer, externalId, search, body] = indexedColumns(resource, undefined);
        rows.set(resource.id, {
          ...row,
          customerId: row.linkedCustomer ?? customer,
          externalId,
          search,
          body,
        });
      },
      async list(name, filter = {}) {
        return matching(draft.collection(name, false).values(), filter).map(storedOf);
      },
      async page(name, filter, query) {
        const rows = matching(draft.collection(name, false).values(), filter);
        return page(resourceSource(rows), query);
      },
      async newestByExternalId(name, externalId) {
        const rows = matching(draft.collection(name, false).values(), { externalId });
        const newest = rows.at(-1);
        return newest && storedOf(newest);
      },
      async claimKey(key, first) {
        const now = realNow(); // keys age on the wall clock, not the sandbox's
        const expired = now - KEY_RETENTION_MS;
        const abandoned = now - ABANDONED_CLAIM_MS;
        const gone = (row: KeyRow) =>
          row.createdAt < expired || (row.answer === null && row.createdAt < abandoned);
        if (now - lastPurge >= PURGE_EVERY_MS || now < lastPurge) {
          lastPurge = now;
          const keys = draft.own("keys");
          for (const [name, row] of keys) if (gone(row)) keys.delete(name);
        }
        const row = data.keys.get(key);
        if (row === undefined || gone(row)) {
          draft.own("keys").set(key, { ...firstOf(first), answer: null, createdAt: now });
          return { claimed: true };
        }
        return {
          claimed: false,
          first:
            row.answer === null
              ? "pending"
              : ({
                  method: row.method,
                  path: row.path,
                  fingerprint: row.fingerprint,
                  answer: JSON.parse(row.answer),
                } as IdempotentAnswer),
        };
      },
      async answerKey(key, answer) {
        const row = data.keys.get(key);
        if (row !== undefined)
          draft.own("keys").set(key, { ...row, answer: answerRecordJson(answer) });
      },
      async releaseKey(key) {
        if (data.keys.get(key)?.answer === null) draft.own("keys").delete(key);
      },
      async schedule(job) {
        const seq = next("jobs");
        draft.own("jobs").set(seq, {
          seq,
          dueAt: job.dueAt,
          kind: job.kind,
          subject: job.subject,
          body: JSON.stringify(job.body),
        });
      },
      async cancelSteps(subject) {
        const jobs = draft.own("jobs");
        for (const [seq, job] of jobs) {
          if (job.kind === "step" && job.subject === subject) jobs.delete(seq);
        }
      },
      async hasDue(upTo) {
        for (const job of data.jobs.values()) if (job.dueAt <= upTo) return true;
        return false;
      },
      async enter(seenAt, room) {
        if (data.clock !== undefined) {
          if (data.clock.seenAt < seenAt) draft.setClock({ ...data.clock, seenAt });
          return { offsetMs: data.clock.offsetMs, created: false };
        }
        const evicted = room === undefined ? undefined : roomFor(partner, room);
        if (evicted !== undefined) draft.removed.push(evicted);
        draft.setClock({ offsetMs: 0, seenAt, faultsVersion: 0 });
        return { offsetMs: 0, created: true, ...(evicted !== undefined && { evicted }) };
      },
      async clockOffset() {
        return data.clock?.offsetMs ?? 0;
      },
      async moveClock(offsetMs) {
        const moved = Math.round(offsetMs);
        if (data.clock !== undefined && data.clock.offsetMs < moved) {
          draft.setClock({ ...data.clock, offsetMs: moved });
        }
        return data.clock?.offsetMs ?? 0;
      },
      async recordEvent(event) {
        recordEvent(event);
      },
      async events() {
        return [...data.attempts].reverse().map((attempt) => JSON.parse(attempt.body));
      },
      eventLog(filter) {
        return attemptSource(data.attempts, filter);
      },
      async latestAttempt(eventId) {
        const prefix = `${JSON.stringify({ id: eventId }).slice(0, -1)},`;
        for (let index = data.attempts.length - 1; index >= 0; index--) {
          const attempt = data.attempts[index] as AttemptRow;
          if (attempt.body.startsWith(prefix)) return JSON.parse(attempt.body);
        }
        return undefined;
      },
      async setting(name) {
        return data.settings.get(name);
      },
      async setSetting(name, value) {
        draft.own("settings").set(name, value);
      },
      async initSetting(name: SettingName, value) {
        if (!data.settings.has(name)) draft.own("settings").set(name, value);
      },
      async replaceAll(replacement) {
        // Everything but the clock, the event log's cursor and the counters, emptied (the new
        // containers are this transaction's own already). The request log keeps its newest
        // batch's number in a batch of no entries, as SQL does (emptyRequestLog).
        const newest = data.requests.at(-1)?.seq;
        Object.assign(data, emptyData());
        for (const field of Object.keys(emptyData()))
          if (field !== "rateLimit") draft.own(field as Copied);
        if (newest !== undefined)
          draft.own("requests").push({ seq: newest, count: 0, text: batchText([]) });
        draft.bumpFaults();
        await fill(replacement);
      },
      fill,
      // The event log (migration 9): cursors taken as the transaction commits.
      appendEvent(event) {
        draft.pending.push(event);
      },
      async eventsAfter(cursor, topics, limit) {
        const kept = data.eventLog.filter(
          (row) => row.n > cursor && (topics.length === 0 || topics.includes(row.topic)),
        );
        return kept
          .slice(0, Math.trunc(limit))
          .map((row) => ({ cursor: row.n, topic: row.topic, body: row.body }));
      },
      async lastCursor() {
        return data.lastCursor;
      },
      async oldestCursor() {
        return data.eventLog[0]?.n;
      },
      eventLogPage(filter) {
        return rowSource(data.eventLog, {
          position: (row) => row.n,
          keep: (row) =>
            (filter.topic === undefined || row.topic === filter.topic) &&
            (filter.customer_id === undefined || row.customerId === filter.customer_id),
          item: (row) => ({ id: String(row.n), text: `{"cursor":"${row.n}",${row.body.slice(1)}` }),
          id: /^[0-9]{1,18}$/,
        });
      },
      async topicAt(cursor, eventId) {
        return data.eventLog.find((row) => row.n === cursor && row.id === eventId)?.topic;
      },
      // Fault rules and the rate limit (migration 7).
      async partnerState() {
        return {
          offsetMs: data.clock?.offsetMs ?? 0,
          faultsVersion: data.clock?.faultsVersion ?? 0,
        };
      },
      async armed() {
        return {
          faults: data.faults.map(({ id, rule, remaining, draws }) => ({
            id,
            rule,
            remaining,
            draws,
          })),
          rateLimit: data.rateLimit && {
            rule: data.rateLimit.rule,
            intervalUs: data.rateLimit.intervalUs,
            burst: data.rateLimit.burst,
          },
        };
      },
      async armFault(fault) {
        draft.own("faults").push({ ...fault, seq: next("faults") });
        draft.bumpFaults();
      },
      async disarmFault(id) {
        const faults = draft.own("faults");
        const index = faults.findIndex((fault) => fault.id === id);
        if (index === -1) return false;
        faults.splice(index, 1);
        draft.bumpFaults();
        return true;
      },
      async claimFault(id) {
        const faults = draft.own("faults");
        const index = faults.findIndex(
          (fault) => fault.id === id && (fault.remaining === null || fault.remaining > 0),
        );
        const fault = faults[index];
        if (fault === undefined) return undefined;
        const remaining = fault.remaining === null ? null : fault.remaining - 1;
        const draws = fault.draws + 1;
        if (remaining === 0) {
          faults.splice(index, 1);
          draft.bumpFaults();
        } else {
          faults[index] = { ...fault, remaining, draws };
        }
        return { remaining, draw: draws };
      },
      async setRateLimit(limit) {
        data.rateLimit = limit === undefined ? undefined : { ...limit, tatUs: 0 };
        draft.bumpFaults();
      },
      async takeRateToken(nowUs) {
        const limit = data.rateLimit;
        if (limit === undefined) return undefined;
        // GCRA: allowed when its theoretical arrival time, pushed one interval on, stays within
        // the burst of now; only then is it stored.
        const now = Math.round(nowUs);
        const start = Math.max(limit.tatUs, now);
        if (start + limit.intervalUs - now <= limit.burst * limit.intervalUs) {
          data.rateLimit = { ...limit, tatUs: start + limit.intervalUs };
          return { allowed: true, tatUs: start + limit.intervalUs };
        }
        return { allowed: false, tatUs: limit.tatUs };
      },
      // The request log (migration 7): its newest REQUESTS_KEPT in batches.
      async appendRequests(entries) {
        if (entries.length === 0) return;
        const requests = draft.own("requests");
        // Numbered per partner, as SQL numbers them (request-log-rows.ts).
        const seq = (requests.at(-1)?.seq ?? 0) + 1;
        requests.push({ seq, count: entries.length, text: batchText(entries) });
        let newer = 0;
        let keep = requests.length;
        while (keep > 0 && newer < REQUESTS_KEPT) {
          keep--;
          newer += (requests[keep] as RequestBatch).count;
        }
        if (keep > 0) data.requests = requests.slice(keep);
      },
      requestLog(filter) {
        return requestSource(data.requests, filter);
      },
      // Readiness counters (migration 8).
      addCounts: async (list) => writeCounts(list, "add"),
      raiseCounts: async (list) => writeCounts(list, "raise"),
      markCounts: async (list) =>
        writeCounts(
          list.map((count) => ({ ...count, n: 1 })),
          "raise",
        ),
      async removeCounts(kind, names) {
        if (!counting) return;
        const own = draft.own("counts");
        for (const [key, count] of own) {
          if (count.kind === kind && names.includes(count.name)) own.delete(key);
        }
      },
      counts: async () => counts(),
      countsOf: async (kind) => counts(kind),
    };
    return tx;
  }

  /** Writes the events the transaction appended, their cursors the partner's next. */
  function writeEvents(draft: Draft): boolean {
    const { pending, data } = draft;
    if (pending.length === 0) return false;
    const log = draft.own("eventLog");
    const first = data.lastCursor + 1;
    pending.forEach((event, index) => {
      log.push({
        n: first + index,
        id: event.id,
        topic: event.topic,
        customerId: event.customerId,
        body: event.body,
      });
    });
    const last = first + pending.length - 1;
    data.lastCursor = last;
    if (
      Math.floor(last / TRIM_EVERY) > Math.floor((first - 1) / TRIM_EVERY) &&
      last > LOGGED_EVENTS_KEPT
    ) {
      data.eventLog = log.filter((row) => row.n > last - LOGGED_EVENTS_KEPT);
    }
    return true;
  }

  /** Room for a new partner beside `partner`: the idle partner dropped for it, if one had to be. */
  function roomFor(partner: string, { maxPartners, idleBefore }: PartnerRoom): string | undefined {
    let count = 0;
    let idlest: [string, number] | undefined;
    for (const [id, data] of partners) {
      // The example key's partner, which holds the seed, is neither counted nor dropped.
      if (id === EXAMPLE_PARTNER_ID || id === partner || data.clock === undefined) continue;
      count++;
      if (
        data.clock.seenAt < idleBefore &&
        (idlest === undefined || data.clock.seenAt < idlest[1])
      ) {
        idlest = [id, data.clock.seenAt];
      }
    }
    if (count < maxPartners) return undefined;
    if (idlest === undefined) throw new PartnerLimitError(maxPartners);
    return idlest[0];
  }

  function transaction<T>(
    partner: string,
    work: (tx: StoreTransaction, draft: Draft) => Promise<T>,
  ): Promise<T> {
    return serial(async () => {
      const draft = draftOf(partner);
      let result: T;
      try {
        result = await work(transactionOf(partner, draft), draft);
      } catch (error) {
        versions.moved(partner);
        throw error;
      }
      const wroteEvents = writeEvents(draft);
      for (const removed of draft.removed) {
        partners.delete(removed);
        versions.moved(removed);
      }
      partners.set(partner, draft.data);
      if (draft.wrote()) versions.moved(partner);
      if (wroteEvents) committed.tell(partner);
      return result;
    });
  }

  const store: SandboxStore = {
    shared: false,
    version: (partner) => versions.of(partner),
    transaction: (partner, work) => transaction(partner, (tx) => work(tx)),
    read: (partner, work) => transaction(partner, (tx) => work(tx)),
    onEventsCommitted: (listener) => committed.listen(listener),
    async runBatch(partner, kind, upTo, limit, perform) {
      const jobs = await serial(async () => dueJobs(partner, kind, upTo, limit));
      if (jobs.length === 0) return 0;
      const finish = await perform(jobs);
      return transaction(partner, async (tx, draft) => {
        const done = await finish(tx);
        const own = draft.own("jobs");
        for (const job of jobs.slice(0, done)) own.delete(job.seq);
        return done;
      });
    },
    // The same, but each part is recorded in a transaction of its own as it is done.
    async holdJobs(partner, kind, upTo, limit) {
      const jobs = await serial(async () => dueJobs(partner, kind, upTo, limit));
      return {
        jobs,
        record: (done, finish) =>
          transaction(partner, async (tx, draft) => {
            const own = draft.own("jobs");
            let removed = 0;
            for (const job of done) if (own.delete(job.seq)) removed++;
            // Nothing is written for jobs a reset (or a purge) removed while they were sent: it
            // left nothing of before (as on Postgres).
            if (removed > 0) await finish(tx);
          }),
        release: async () => {},
      };
    },
    duePartners: (now) =>
      serial(async () =>
        [...partners]
          .filter(([, data]) => {
            if (data.clock === undefined) return false;
            const upTo = now + data.clock.offsetMs;
            for (const job of data.jobs.values()) if (job.dueAt <= upTo) return true;
            return false;
          })
          .map(([id]) => id),
      ),
    purgeIdle: (seenBefore) =>
      serial(async () => {
        const idle = [...partners]
          .filter(([, data]) => data.clock !== undefined && data.clock.seenAt < seenBefore)
          .map(([id]) => id);
        for (const id of idle) {
          partners.delete(id);
          versions.moved(id);
        }
        return idle;
      }),
    async close() {
      await serial(async () => partners.clear());
    },
  };

  function dueJobs(partner: string, kind: JobKind, upTo: number, limit: number): ScheduledJob[] {
    const jobs = [...(partners.get(partner)?.jobs.values() ?? [])]
      .filter((job) => job.kind === kind && job.dueAt <= upTo)
      .sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)
      .slice(0, limit);
    return jobs.map((job) => ({ ...job, body: JSON.parse(job.body) }));
  }

  await transaction(EXAMPLE_PARTNER_ID, async (tx) => {
    await tx.enter(realNow());
    await tx.fill(initial());
  });
  return store;
}

function firstOf(first: Omit<IdempotentAnswer, "answer">) {
  return { method: first.method, path: first.path, fingerprint: first.fingerprint };
}

/** A page source over resources in the order they were made (their seq). */
function resourceSource(rows: ResourceRow[]): PageSource<{ id: string; json: string }> {
  const positioned = (row: ResourceRow) => ({
    position: row.seq,
    item: { id: row.id, json: row.body },
  });
  return {
    async position(id) {
      return rows.find((row) => row.id === id)?.seq;
    },
    async from(position, limit) {
      return rows
        .filter((row) => row.seq >= (position ?? 0))
        .slice(0, limit)
        .map(positioned);
    },
    async before(position, limit) {
      const earlier = rows.filter((row) => row.seq < position);
      return earlier.slice(Math.max(earlier.length - limit, 0)).map(positioned);
    },
    json: (item) => item.json,
  };
}

/**
 * A list kept oldest first (positions ascending), paged newest first: a page reads the rows from
 * its place on until it is full, not every row of the list.
 */
function rowSource<R, T extends { id: string; text: string }>(
  rows: R[],
  {
    position,
    keep,
    item,
    id,
  }: {
    position: (row: R) => number;
    keep: (row: R) => boolean;
    item: (row: R) => T;
    id: RegExp;
  },
): PageSource<T> {
  /** The index of the last row at or before `place`, or -1. */
  const lastAtMost = (place: number) => {
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (position(rows[middle] as R) <= place) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  };
  function* walk(from: number, step: 1 | -1): Generator<Positioned<T>> {
    for (let at = from; at >= 0 && at < rows.length; at += step) {
      const row = rows[at] as R;
      if (keep(row)) yield { position: position(row), item: item(row) };
    }
  }
  return {
    async position(cursor) {
      if (!id.test(cursor)) return undefined;
      const place = Number(cursor);
      const row = rows[lastAtMost(place)];
      return row !== undefined && position(row) === place && keep(row) ? place : undefined;
    },
    async from(place, limit) {
      return take(walk(place === undefined ? rows.length - 1 : lastAtMost(place), -1), limit);
    },
    async before(place, limit) {
      return take(walk(lastAtMost(place) + 1, 1), limit).reverse();
    },
    json: (entry) => entry.text,
  };
}

/** Up to `limit` of `entries`, in their order. */
function take<T>(entries: Iterable<T>, limit: number): T[] {
  const taken: T[] = [];
  if (limit <= 0) return taken;
  for (const entry of entries) {
    taken.push(entry);
    if (taken.length === limit) break;
  }
  return taken;
}

/** The delivery attempts that match the filter, newest first, in the order of their seq. */
function attemptSource(attempts: AttemptRow[], filter: EventLogFilter): PageSource<LoggedAttempt> {
  const filtered = Object.values(filter).some((value) => value !== undefined);
  const source = rowSource(attempts, {
    position: (attempt) => attempt.seq,
    keep: (attempt) => {
      if (!filtered) return true;
      const record = JSON.parse(attempt.body) as Record<string, unknown> & {
        payload?: { customer_id?: unknown };
      };
      return (
        (filter.id === undefined || record.id === filter.id) &&
        (filter.webhook_id === undefined || record.webhook_id === filter.webhook_id) &&
        (filter.topic === undefined || record.topic === filter.topic) &&
        (filter.customer_id === undefined || record.payload?.customer_id === filter.customer_id) &&
        (filter.delivered === undefined || (record.delivered === true) === filter.delivered)
      );
    },
    item: (attempt) => ({ id: attemptIdOf(attempt), text: attempt.body }),
    id: /^[0-9]{1,15}$/,
  });
  return {
    ...source,
    // An attempt's cursor is its `attempt_id`, as in SQL (sql-store.ts): `seq` counts every
    // partner's attempts.
    async position(cursor) {
      const attempt = attempts.find(
        (row) => row.body.includes(cursor) && attemptIdOf(row) === cursor,
      );
      return attempt && source.position(String(attempt.seq));
    },
  };
}

function attemptIdOf(attempt: AttemptRow): string {
  return String((JSON.parse(attempt.body) as { attempt_id: string }).attempt_id);
}

/** The request log's entries that match the filter, newest first; an entry's place is its cursor. */
function requestSource(
  batches: RequestBatch[],
  filter: RequestLogFilter,
): PageSource<LoggedRequest> {
  // A page reads only the batches it reaches, each decoded once: a request log of 10,000 entries
  // is not decoded whole for a page of ten.
  const decoded = new Map<number, KeptRequest[]>();
  const entriesOf = (at: number) => {
    let entries = decoded.get(at);
    if (entries === undefined) {
      entries = batchEntries((batches[at] as RequestBatch).text);
      decoded.set(at, entries);
    }
    return entries;
  };
  const matches = keptBy(filter);
  /** The matching entries from `place` on, towards older ones (`-1`) or newer ones (`1`). */
  function* walk(place: number, step: 1 | -1): Generator<Positioned<LoggedRequest>> {
    const seq = Math.floor(place / PLACES_PER_BATCH);
    let at = step < 0 ? batches.length - 1 : 0;
    while (
      at >= 0 &&
      at < batches.length &&
      (batches[at] as RequestBatch).seq * step < seq * step
    ) {
      at += step;
    }
    for (; at >= 0 && at < batches.length; at += step) {
      const batch = batches[at] as RequestBatch;
      const entries = entriesOf(at);
      const first = batch.seq * PLACES_PER_BATCH;
      let index =
        step < 0 ? Math.min(place - first, entries.length - 1) : Math.max(place - first, 0);
      for (; index >= 0 && index < entries.length; index += step) {
        const entry = entries[index] as KeptRequest;
        if (matches(entry)) yield listedAt(first + index, entry);
      }
    }
  }
  return {
    async position(cursor) {
      if (!/^[0-9]{1,15}$/.test(cursor)) return undefined;
      const place = Number(cursor);
      const [found] = take(walk(place, -1), 1);
      return found?.position === place ? place : undefined;
    },
    async from(position, limit) {
      return take(walk(position ?? Number.MAX_SAFE_INTEGER, -1), limit);
    },
    async before(position, limit) {
      return take(walk(position + 1, 1), limit).reverse();
    },
    json: (item) => item.text,
  };
}
