// The partner's events as GET /_sandbox/events/stream sends them (Server-Sent Events), read from
// a cursor on: each event's `id:` is its cursor, `event:` its topic, `data:` the JSON a webhook
// receives. A stream that ends, breaks or goes silent longer than the heartbeat allows is opened
// again after the last event handled, so nothing is skipped and nothing comes twice; events the
// sandbox no longer holds (a `: gap:` comment) are said, not skipped in silence.
import { createParser } from "eventsource-parser";

/** One event of the stream. */
export interface StreamedEvent {
  /** Its place in the partner's event log: resume after it with this. */
  cursor: string;
  topic: string;
  /** The event as a webhook receives it, byte for byte. */
  body: string;
}

export interface EventStreamOptions {
  /** The sandbox's base URL, ending in /. */
  baseUrl: URL;
  apiKey: string;
  /** Only these topics; all when empty. */
  topics: readonly string[];
  /** Resume after this cursor; undefined for the events committed from now on. */
  after: string | undefined;
  /**
   * Handles one event; the stream waits for it, and resumes after the last one it resolved for.
   */
  onEvent(event: StreamedEvent): Promise<void>;
  /**
   * The stream named where it starts, and that is now the position: the first stream opened
   * "from now on", or one of a log that started again below the cursor asked for.
   */
  onStart?(cursor: string): void;
  /** The stream is open (again): `reconnected` false the first time. */
  onOpen(reconnected: boolean): void;
  /** The sandbox no longer holds some events after the cursor (trimmed, or a reset): its words. */
  onGap(words: string): void;
  /** The stream broke and is opened again after `delayMs` (0 after one that delivered events): why, in words. */
  onBroken(reason: string, delayMs: number): void;
  /** Silence (not even a heartbeat) longer than this counts as a broken connection. Default 45 s. */
  idleTimeoutMs?: number;
  signal: AbortSignal;
}

/**
 * Refused by the sandbox in a way that opening the stream again will not mend (a redirect, 401,
 * 404, 422, an answer that is no event stream).
 */
class StreamRefused extends Error {
  override name = "StreamRefused";
}

const FIRST_DELAY_MS = 100;
const LONGEST_DELAY_MS = 5_000;

/** Reads the stream until `signal` aborts, opening it again whenever it breaks. */
export async function followEvents(options: EventStreamOptions): Promise<void> {
  let after = options.after;
  let opened = false;
  let delay = FIRST_DELAY_MS;
  while (!options.signal.aborted) {
    let progressed = false;
    const reason = await readOnce(
      options,
      after,
      (event) => {
        after = event.cursor;
        progressed = true;
      },
      () => {
        options.onOpen(opened);
        opened = true;
        delay = FIRST_DELAY_MS;
      },
      (cursor) => {
        // A stream opened "from now on" starts at the cursor it names: a reconnect before its
        // first event resumes there, not from a new now that would skip what came meanwhile. One
        // that starts before the cursor asked for is of a log that started again (a sandbox kept
        // in memory restarted, a partner purged): its events are new, and followed from there.
        if (after === undefined || isBefore(cursor, after)) {
          after = cursor;
          options.onStart?.(cursor);
        }
      },
    ).catch((error: unknown) => {
      if (error instanceof StreamRefused) throw error;
      return describe(error);
    });
    if (options.signal.aborted) return;
    // A stream that was delivering is opened again at once: a dropped connection should not
    // hold events back. Failing ones wait longer each time, so a sandbox that is down is not hammered.
    const wait = progressed ? 0 : delay;
    options.onBroken(reason, wait);
    await sleep(wait, options.signal);
    delay = progressed ? FIRST_DELAY_MS : Math.min(delay * 2, LONGEST_DELAY_MS);
  }
}

/** One connection: resolves with why it ended. */
async function readOnce(
  options: EventStreamOptions,
  after: string | undefined,
  handled: (event: StreamedEvent) => void,
  open: () => void,
  started: (cursor: string) => void,
): Promise<string> {
  const url = new URL("_sandbox/events/stream", options.baseUrl);
  if (options.topics.length > 0) url.searchParams.set("topics", options.topics.join(","));
  const connection = new AbortController();
  const abort = () => connection.abort();
  options.signal.addEventListener("abort", abort, { once: true });
  const idleMs = options.idleTimeoutMs ?? 45_000;
  let idle: NodeJS.Timeout | undefined;
  let silent = false;
  const stillAlive = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      silent = true;
      connection.abort();
    }, idleMs);
  };
  try {
    stillAlive();
    const response = await fetch(url, {
      headers: {
        "x-api-key": options.apiKey,
        accept: "text/event-stream",
        ...(after !== undefined && { "last-event-id": after }),
      },
      signal: connection.signal,
      // Not followed: the key goes to the sandbox given, never where a redirect points.
      redirect: "manual",
    });
    if (response.status !== 200 || response.body === null) {
      const text = await response.text().catch(() => "");
      const location = response.headers.get("location");
      const message = `${url.pathname} answered ${response.status}: ${location === null ? problemDetail(text) : `a redirect to ${location}, not followed: give the sandbox's own URL`}`;
      if (response.status >= 300 && response.status < 500 && response.status !== 429) {
        throw new StreamRefused(message);
      }
      return message;
    }
    // A 200 that is no event stream (a web page at a wrong --url) would read as a stream that is
    // open and then ends, again and again.
    const type = response.headers.get("content-type") ?? "";
    if (!/^text\/event-stream\b/i.test(type)) {
      await response.body.cancel();
      throw new StreamRefused(
        `${url.pathname} answered 200 with ${type === "" ? "no Content-Type" : type}, not an event stream: is ${options.baseUrl.href} the sandbox (--url, PAYMENTS_BASE_URL)?`,
      );
    }
    open();
    let pending = Promise.resolve();
    let failure: unknown;
    /** Events at or before this one were handled: the cursor asked for, or where the log starts again. */
    let handledUpTo = after;
    const parser = createParser({
      onComment(comment) {
        const start = /^\s*the events after cursor (\d{1,18})$/.exec(comment)?.[1];
        if (start !== undefined) {
          if (handledUpTo !== undefined && isBefore(start, handledUpTo)) handledUpTo = start;
          started(start);
        }
        const gap = /^\s*gap:\s*(.+)$/.exec(comment)?.[1];
        if (gap !== undefined) options.onGap(gap);
      },
      onEvent(message) {
        if (message.id === undefined || message.event === undefined) return;
        // An event at or before the last one handled is never handled again.
        if (handledUpTo !== undefined && isAtOrBefore(message.id, handledUpTo)) return;
        const event = { cursor: message.id, topic: message.event, body: message.data };
        // In order, one at a time: the cursor moves only past an event handled.
        pending = pending.then(async () => {
          if (failure !== undefined || options.signal.aborted) return;
          await options.onEvent(event);
          handled(event);
        });
        pending.catch((error: unknown) => {
          failure = error;
          connection.abort();
        });
      },
    });
    const decoder = new TextDecoder();
    let broke: unknown;
    try {
      for await (const chunk of response.body) {
        stillAlive();
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      broke = error;
    }
    // The events read before the break are handled first: the next connection starts after them.
    await pending.catch(() => {});
    if (failure !== undefined) throw failure;
    if (silent) return `no heartbeat for ${idleMs / 1000} s`;
    return broke === undefined ? "the sandbox closed the stream" : describe(broke);
  } catch (error) {
    if (silent) return `no heartbeat for ${idleMs / 1000} s`;
    throw error;
  } finally {
    clearTimeout(idle);
    options.signal.removeEventListener("abort", abort);
    connection.abort();
  }
}

/** Whether cursor `a` is before `b` (whole numbers, as text). */
function isBefore(a: string, b: string): boolean {
  return /^\d+$/.test(a) && /^\d+$/.test(b) && BigInt(a) < BigInt(b);
}

/** Whether cursor `a` is at or before `b` (whole numbers, as text). */
function isAtOrBefore(a: string, b: string): boolean {
  return /^\d+$/.test(a) && /^\d+$/.test(b) && BigInt(a) <= BigInt(b);
}

function problemDetail(text: string): string {
  try {
    const problem = JSON.parse(text) as { detail?: string; title?: string };
    return problem.detail ?? problem.title ?? text.slice(0, 300);
  } catch {
    return text.slice(0, 300) || "no body";
  }
}

function describe(error: unknown): string {
  const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
