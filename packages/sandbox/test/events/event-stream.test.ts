// The event stream over a partner's log that the test holds: a stream open while its partner is
// purged and made anew (idle, or evicted for room) must not wait, in silence, for a cursor the new
// log reaches only after as many events: it ends, and the client's reconnect with its last id
// (past the new log's newest) starts again at the new log's first event.

import { expect, it } from "vitest";
import type { AnswerSink } from "../../src/answers/answer.js";
import type { EventLogReads } from "../../src/events/event-rows.js";
import { EventStreams, eventStream } from "../../src/events/event-stream.js";
import type { LoggedEvent } from "../../src/store/event-log-rows.js";

/** A partner's log, as the store holds it, and what tells the streams that its events committed. */
function partnerLog() {
  let events: LoggedEvent[] = [];
  let last = 0;
  const listeners = new Set<(partner: string | undefined) => void>();
  const rows: EventLogReads = {
    eventsAfter: async (cursor, _topics, limit) =>
      events.filter((event) => event.cursor > cursor).slice(0, limit),
    lastCursor: async () => last,
    oldestCursor: async () => events[0]?.cursor,
  };
  return {
    store: { read: <T>(work: (rows: EventLogReads) => Promise<T>) => work(rows) },
    source: {
      onEventsCommitted(listener: (partner: string | undefined) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    commit(count: number, { told = true } = {}) {
      for (let n = 0; n < count; n++) {
        last++;
        events.push({ cursor: last, topic: "CustomerCreated", body: `{"n":${last}}` });
      }
      if (told) for (const listener of listeners) listener("partner");
    },
    purge() {
      events = [];
      last = 0;
    },
    /** A reset: the log emptied, its cursors going on. */
    reset() {
      events = [];
    },
  };
}

/** A client that reads everything at once. */
function client() {
  let text = "";
  let ended = false;
  const closers: (() => void)[] = [];
  const sink: AnswerSink = {
    write(chunk) {
      text += chunk;
      return true;
    },
    drained: async () => {},
    end() {
      if (ended) return;
      ended = true;
      for (const close of closers) close();
    },
    onClose: (listener) => closers.push(listener),
  };
  return {
    sink,
    ids: () => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1])),
    gaps: () =>
      [...text.matchAll(/^: gap: the log no longer holds events (\d+ to \d+)/gm)].map(
        (match) => match[1],
      ),
    ended: () => ended,
  };
}

it("ends a stream whose partner's log started again below its cursor, and a reconnect starts at its first event", async () => {
  const log = partnerLog();
  const streams = new EventStreams(log.source, { pollMs: 10, heartbeatMs: 60_000 });
  log.commit(3);
  const first = client();
  (await eventStream("partner", log.store, streams, { after: 0, topics: [] })).start(first.sink);
  await expect.poll(() => first.ids()).toEqual([1, 2, 3]);
  // Purged, then made anew by its next request: its new log's events are 1 and 2.
  log.purge();
  log.commit(2);
  await expect.poll(() => first.ended()).toBe(true);
  expect(first.ids()).toEqual([1, 2, 3]);
  const again = client();
  (await eventStream("partner", log.store, streams, { after: 3, topics: [] })).start(again.sink);
  await expect.poll(() => again.ids()).toEqual([1, 2]);
  again.sink.end();
  streams.close();
});

it("stops writing heartbeats to a client that reads nothing, so that what waits for it stays bounded", async () => {
  const log = partnerLog();
  const streams = new EventStreams(log.source, { pollMs: 10, heartbeatMs: 2 });
  log.commit(3);
  let written = 0;
  let ended = false;
  const closers: (() => void)[] = [];
  const sink: AnswerSink = {
    // The client reads nothing: every write waits, and it never drains.
    write(text) {
      written += text.length;
      return false;
    },
    drained: () => new Promise(() => {}),
    end() {
      ended = true;
      for (const close of closers) close();
    },
    onClose: (listener) => closers.push(listener),
  };
  (await eventStream("partner", log.store, streams, { after: 0, topics: [] })).start(sink);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const waiting = written;
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(written).toBe(waiting);
  sink.end();
  expect(ended).toBe(true);
  streams.close();
});

it("says which events a reset took from an open stream before it read them", async () => {
  const log = partnerLog();
  const streams = new EventStreams(log.source, { pollMs: 60_000, heartbeatMs: 60_000 });
  log.commit(3);
  const open = client();
  (await eventStream("partner", log.store, streams, { after: 0, topics: [] })).start(open.sink);
  await expect.poll(() => open.ids()).toEqual([1, 2, 3]);
  // Events 4 and 5 commit, and a reset empties the log before the stream reads them.
  log.commit(2, { told: false });
  log.reset();
  log.commit(1);
  await expect.poll(() => open.ids()).toEqual([1, 2, 3, 6]);
  expect(open.gaps()).toEqual(["4 to 5"]);
  open.sink.end();
  streams.close();
});
