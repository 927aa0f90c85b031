// GET /_sandbox/events/stream: the partner's event log as Server-Sent Events, from a cursor on.
// Each event goes out as `id: <cursor>`, `event: <topic>`, `data: <the JSON a webhook receives>`,
// in cursor order (the order its transactions committed); a client that reconnects with the last
// id it got (Last-Event-ID, or ?after=) misses nothing and gets nothing twice. A stream reads what
// is new when its partner's events commit (EventStreams, told by the store: in process for SQLite,
// by Postgres's NOTIFY from any replica), and every `pollMs` in any case; a comment line every
// `heartbeatMs` keeps an idle connection open through proxies and tells the client it is alive.
import type { AnswerSink, StreamedAnswer } from "../answers/answer.js";
import type { CommittedReads } from "../test-mode/index.js";
import type { EventLogReads } from "./event-rows.js";

export interface EventStreamTiming {
  /** A comment is sent on an idle stream this often. */
  heartbeatMs: number;
  /** A stream reads its partner's log at least this often, told of new events or not. */
  pollMs: number;
}

const DEFAULT_EVENT_STREAM_TIMING: EventStreamTiming = {
  heartbeatMs: 15_000,
  pollMs: 1_000,
};

/** Events read at most at a time. */
const READ_AT_ONCE = 500;

/** What tells the streams of this process that a partner's events committed (the store). */
export interface EventsCommittedSource {
  onEventsCommitted(listener: (partner: string | undefined) => void): () => void;
}

/** The open streams of a sandbox: woken when their partner's events commit, ended as it closes. */
export class EventStreams {
  readonly timing: EventStreamTiming;
  private readonly source: EventsCommittedSource;
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly enders = new Set<() => void>();
  private unlisten: (() => void) | undefined;

  constructor(source: EventsCommittedSource, timing: Partial<EventStreamTiming> = {}) {
    this.source = source;
    this.timing = { ...DEFAULT_EVENT_STREAM_TIMING, ...timing };
  }

  /** Calls `wake` whenever the partner's events commit, and `end` if the sandbox closes; resolves to the removal. */
  watch(partner: string, wake: () => void, end: () => void): () => void {
    let wakers = this.wakers.get(partner);
    if (wakers === undefined) {
      wakers = new Set();
      this.wakers.set(partner, wakers);
    }
    wakers.add(wake);
    this.enders.add(end);
    this.unlisten ??= this.source.onEventsCommitted((committed) => {
      const partners =
        committed === undefined ? [...this.wakers.values()] : [this.wakers.get(committed)];
      for (const waker of partners.flatMap((wakers) => [...(wakers ?? [])])) waker();
    });
    return () => {
      wakers.delete(wake);
      if (wakers.size === 0) this.wakers.delete(partner);
      this.enders.delete(end);
      if (this.enders.size === 0) {
        this.unlisten?.();
        this.unlisten = undefined;
      }
    };
  }

  /** Ends every open stream. */
  close(): void {
    for (const end of [...this.enders]) end();
  }
}

/** Where a stream starts: after this cursor, or (undefined) after the newest event committed. */
export interface StreamStart {
  after: number | undefined;
  /** Only these topics; every topic when empty. */
  topics: readonly string[];
}

/**
 * The streamed answer of the partner's events. Where it starts is read before it answers: an
 * event committed once the client has the answer's headers is in it.
 */
export async function eventStream(
  partner: string,
  store: CommittedReads<EventLogReads>,
  streams: EventStreams,
  { after, topics }: StreamStart,
): Promise<StreamedAnswer> {
  const newest = await store.read((tx) => tx.lastCursor());
  // A cursor past the newest event is one of a partner since dropped and made anew: its log
  // starts again, so the stream does too, rather than wait for a cursor that is long gone.
  const cursor = after === undefined ? newest : after > newest ? 0 : after;
  return {
    contentType: "text/event-stream; charset=utf-8",
    start: (sink) => {
      void follow(partner, store, streams, { after: cursor, topics }, sink);
    },
  };
}

async function follow(
  partner: string,
  store: CommittedReads<EventLogReads>,
  streams: EventStreams,
  { after, topics }: { after: number; topics: readonly string[] },
  sink: AnswerSink,
): Promise<void> {
  let open = true;
  let woken = false;
  let wake: (() => void) | undefined;
  const rouse = () => {
    woken = true;
    wake?.();
  };
  const unwatch = streams.watch(partner, rouse, () => sink.end());
  // A client that has not read what was written needs no heartbeat: what waits for it would
  // only grow, a comment every beat for as long as it stays open.
  let backedUp = false;
  const write = (text: string) => {
    if (!sink.write(text)) backedUp = true;
  };
  const heartbeat = setInterval(() => {
    if (!backedUp) write(": heartbeat\n\n");
  }, streams.timing.heartbeatMs);
  sink.onClose(() => {
    open = false;
    clearInterval(heartbeat);
    unwatch();
    rouse();
  });
  try {
    let cursor = after;
    write(`retry: 1000\n: the events after cursor ${cursor}\n\n`);
    // The first read also finds the events the log no longer holds, and so does a later one
    // that skips a cursor (a reset, or a trim, took events before the stream read them). The
    // reads are of what has committed, which a stream opened again during a busy advance need
    // not queue behind.
    let first = true;
    while (open) {
      woken = false;
      const { events, upTo, gone } = await store.read(async (tx) => {
        const last = await tx.lastCursor();
        const events = await tx.eventsAfter(cursor, topics, READ_AT_ONCE);
        const skips = first || (events[0]?.cursor ?? last + 1) > cursor + 1;
        return {
          gone: skips ? await eventsNoLongerKept(tx, cursor, last) : undefined,
          events,
          upTo: last,
        };
      });
      first = false;
      if (upTo < cursor) {
        // The partner's log started again below the cursor (purged and made anew: idle, or
        // evicted for room): ended, so that the client's reconnect with its last id, past the
        // new log's newest, starts again at its first event rather than wait for that id.
        sink.end();
        return;
      }
      if (gone !== undefined) {
        write(
          `: gap: the log no longer holds events ${gone.from} to ${gone.to} (it keeps only a partner's newest events, and a reset empties it)\n\n`,
        );
      }
      for (const event of events) {
        if (event.cursor > upTo) break;
        write(`id: ${event.cursor}\nevent: ${event.topic}\ndata: ${event.body}\n\n`);
        cursor = event.cursor;
      }
      await sink.drained();
      backedUp = false;
      if (events.length === READ_AT_ONCE) continue;
      // The events of other topics up to the newest are passed: the next read starts after them.
      cursor = Math.max(cursor, upTo);
      if (woken || !open) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, streams.timing.pollMs);
        wake = done;
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
      });
    }
  } catch {
    // The store is gone (the sandbox stopping, a lost database): the client reconnects.
    sink.end();
  }
}

/**
 * The cursors after `cursor` whose events the log no longer holds (trimmed, or emptied by a
 * reset): cursors are consecutive, so the events between `cursor` and the oldest one kept are gone.
 */
async function eventsNoLongerKept(
  tx: EventLogReads,
  cursor: number,
  newest: number,
): Promise<{ from: number; to: number } | undefined> {
  const oldest = await tx.oldestCursor();
  const to = (oldest ?? newest + 1) - 1;
  return to > cursor ? { from: cursor + 1, to } : undefined;
}
