// A reader of a sandbox's event stream (GET /_sandbox/events/stream) inside a test: every event
// and comment line it gets, in order, until the test closes it.

export interface StreamedEvent {
  id: string;
  event: string;
  /** The event's JSON text, as sent. */
  data: string;
}

export interface EventStreamOptions {
  apiKey: string;
  /** Query parameters (`after`, `topics`). */
  query?: Record<string, string>;
  /** Sent as Last-Event-ID. */
  lastEventId?: string;
}

/** Opens the stream; rejects with the status and body when the sandbox does not answer 200. */
export async function openEventStream(baseUrl: string, options: EventStreamOptions) {
  const url = new URL("/_sandbox/events/stream", baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {}))
    url.searchParams.set(name, value);
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: {
      "X-API-Key": options.apiKey,
      ...(options.lastEventId !== undefined && { "Last-Event-ID": options.lastEventId }),
    },
    signal: controller.signal,
  });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`the stream answered ${response.status}: ${await response.text()}`);
  }
  const events: StreamedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let split = buffered.indexOf("\n\n");
        while (split >= 0) {
          const block = buffered.slice(0, split);
          buffered = buffered.slice(split + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(":");
              fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "");
            }
          }
          if (fields.id !== undefined && fields.data !== undefined) {
            events.push({ id: fields.id, event: fields.event ?? "message", data: fields.data });
          }
          split = buffered.indexOf("\n\n");
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test.
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();
  /** Resolves once `done` holds; fails after `timeoutMs` saying what arrived. */
  const until = async (done: () => boolean, what: string, timeoutMs = 10_000) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    while (!done()) {
      if (deadline.aborted || ended) {
        throw new Error(
          `${what} did not arrive${ended ? " before the stream ended" : ` within ${timeoutMs} ms`}: ${JSON.stringify(events.map((event) => `${event.id} ${event.event}`))}`,
        );
      }
      await new Promise<void>((wake) => {
        waiters.add(wake);
        deadline.addEventListener("abort", () => wake(), { once: true });
      }).finally(() => waiters.clear());
    }
  };
  return {
    headers: response.headers,
    events,
    comments,
    /** Resolves once at least `count` events arrived. */
    waitForEvents: (count: number, timeoutMs?: number) =>
      until(() => events.length >= count, `${count} events`, timeoutMs).then(() => events),
    /** Resolves once a comment line holding `text` arrived. */
    waitForComment: (text: string, timeoutMs?: number) =>
      until(
        () => comments.some((comment) => comment.includes(text)),
        `a comment "${text}"`,
        timeoutMs,
      ),
    /** Resolves once the sandbox ended the stream. */
    ended: () => reading,
    async close() {
      controller.abort();
      await reading;
    },
  };
}
