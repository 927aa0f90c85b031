// payments-mock listen's work, as a function: the partner's events streamed from the sandbox,
// each posted to its local receiver as a webhook delivery would be, a line printed per event, the
// receivers' answers reported to the sandbox as acknowledgements, and the cursor kept (in a file,
// when given) so that a reconnect or a restart resumes after the last event forwarded.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { followEvents, type StreamedEvent } from "./event-stream.js";
import { type Forwarded, Forwarder } from "./forward.js";
import { InFlight } from "./in-flight.js";
import { Receipts } from "./receipts.js";

type ListenFormat = "text" | "json";

export interface ListenOptions {
  /** The sandbox's base URL, ending in /. */
  baseUrl: URL;
  apiKey: string;
  /** The topics streamed; all when empty. */
  topics: readonly string[];
  /** Where events go that `routes` does not send elsewhere; none: printed only. */
  forwardTo?: URL;
  /** Receivers of their own for some topics. */
  routes: ReadonlyMap<string, URL>;
  /** Keeps the cursor across restarts of listen: read at start, written after each event. */
  cursorFile?: string;
  /** Start after this cursor (0: every event the log keeps) when no cursor file says otherwise. */
  after?: string;
  format: ListenFormat;
  /** Prints a line on standard output. */
  write(line: string): void;
  /** Says something on standard error. */
  warn(line: string): void;
  /** Silence longer than this counts as a broken connection. */
  idleTimeoutMs?: number;
  signal: AbortSignal;
}

/**
 * Events forwarded at once, as the sandbox sends its own deliveries (DELIVERIES_IN_FLIGHT): those
 * of one receiver about one customer still one after another, in cursor order.
 */
const FORWARDS_AT_ONCE = 16;

/** An event forwarded (or printed only), with what its line says. */
interface Handled {
  event: StreamedEvent;
  id: string | undefined;
  customerId: string | null | undefined;
  receiver: URL | undefined;
  forwarded: Forwarded | undefined;
}

/** Listens until `signal` aborts; rejects when the sandbox refuses the stream for good. */
export async function listen(options: ListenOptions): Promise<void> {
  const forwarder = new Forwarder();
  const receipts = new Receipts(options.baseUrl, options.apiKey, options.warn);
  const kept =
    options.cursorFile === undefined
      ? undefined
      : await readCursor(options.cursorFile, options.apiKey);
  const saved = kept?.cursor;
  const cursorFile = options.cursorFile;
  // The cursor file's writes, one after another (each writes the same temporary file).
  let saving: Promise<void> = Promise.resolve();
  const keepCursor = (file: string, cursor: string) => {
    const saved = saving.catch(() => {}).then(() => saveCursor(file, cursor, kept?.owner ?? ""));
    saving = saved;
    return saved;
  };
  const inFlight = new InFlight<Handled>(FORWARDS_AT_ONCE, async (handled) => {
    const { event, id, customerId, receiver, forwarded } = handled;
    if (forwarded !== undefined && id !== undefined) {
      receipts.add({ id, cursor: event.cursor, status_code: forwarded.status });
    }
    if (cursorFile !== undefined) await keepCursor(cursorFile, event.cursor);
    options.write(eventLine(options.format, event, id, customerId, receiver, forwarded));
  });
  try {
    await followEvents({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      topics: options.topics,
      after: saved ?? options.after,
      idleTimeoutMs: options.idleTimeoutMs,
      // An event that cannot be finished (its cursor not kept) stops listen, as it did the stream.
      signal: AbortSignal.any([options.signal, inFlight.failed]),
      onOpen(reconnected) {
        if (reconnected) {
          options.warn("the event stream is open again: resuming after the last event forwarded");
          receipts.resend();
        } else options.write(readyLine(options, saved));
      },
      onStart(cursor) {
        // The position before any event is forwarded: a listen stopped now and started again
        // gets the events committed meanwhile, not only those from its new start on.
        if (cursorFile === undefined) return;
        keepCursor(cursorFile, cursor).catch((error: Error) =>
          options.warn(`cannot keep the cursor in ${cursorFile}: ${error.message}`),
        );
      },
      onGap(words) {
        options.warn(`${words}: those events cannot be forwarded`);
      },
      onBroken(reason, delayMs) {
        const when = delayMs === 0 ? "now" : `in ${delayMs} ms`;
        options.warn(`the event stream broke (${reason}); opening it again ${when}`);
      },
      async onEvent(event) {
        const receiver = options.routes.get(event.topic) ?? options.forwardTo;
        const { id, customerId } = idsOf(event);
        await inFlight.take(
          event.cursor,
          `${receiver?.href ?? ""}\n${customerId ?? ""}`,
          async () => ({
            event,
            id,
            customerId,
            receiver,
            forwarded:
              receiver === undefined ? undefined : await forwarder.forward(receiver, event.body),
          }),
        );
      },
    });
  } finally {
    // The events taken are forwarded, their lines printed and the cursor kept, before it stops.
    await inFlight.drained().catch(() => {});
    await saving.catch(() => {});
    await receipts.settled();
    receipts.resend();
    await receipts.settled();
    if (receipts.waiting > 0) {
      options.warn(
        `${receipts.waiting} of the receivers' answers were not told to the sandbox (it did not answer): the readiness report misses them`,
      );
    }
    forwarder.close();
  }
  if (inFlight.failed.aborted) throw inFlight.failed.reason;
}

function readyLine(options: ListenOptions, saved: string | undefined): string {
  const topics = options.topics.length === 0 ? "every topic" : options.topics.join(", ");
  const from =
    saved !== undefined
      ? `after cursor ${saved} (from ${options.cursorFile})`
      : options.after !== undefined
        ? `after cursor ${options.after}`
        : "from now on";
  const where = [
    ...[...options.routes].map(([topic, url]) => `${topic} to ${shownUrl(url)}`),
    ...(options.forwardTo === undefined
      ? []
      : [`${options.routes.size > 0 ? "the rest" : "events"} to ${shownUrl(options.forwardTo)}`]),
  ];
  if (options.format === "json") {
    return JSON.stringify({
      type: "ready",
      sandbox: options.baseUrl.href,
      topics: options.topics,
      after: saved ?? options.after ?? null,
      forward_to: options.forwardTo === undefined ? null : shownUrl(options.forwardTo),
      forward: Object.fromEntries(
        [...options.routes].map(([topic, url]) => [topic, shownUrl(url)]),
      ),
    });
  }
  return `Ready: streaming ${topics} of ${options.baseUrl.href} ${from}${where.length > 0 ? `, forwarding ${where.join(", ")}` : " (printing only: --forward-to sends them to a receiver)"}`;
}

function eventLine(
  format: ListenFormat,
  event: StreamedEvent,
  id: string | undefined,
  customerId: string | null | undefined,
  receiver: URL | undefined,
  forwarded: Forwarded | undefined,
): string {
  const time = new Date().toISOString();
  if (format === "json") {
    return JSON.stringify({
      type: "event",
      time,
      topic: event.topic,
      event_id: id ?? null,
      cursor: event.cursor,
      customer_id: customerId ?? null,
      forwarded_to: receiver === undefined ? null : shownUrl(receiver),
      status: forwarded?.status ?? null,
      duration_ms: forwarded?.durationMs ?? null,
      ...(forwarded !== undefined && "error" in forwarded && { error: forwarded.error }),
    });
  }
  const head = `${time}  ${event.topic.padEnd(25)}  ${id ?? "(no id)"}`;
  if (receiver === undefined || forwarded === undefined) return head;
  const answer = forwarded.status ?? `no answer (${"error" in forwarded ? forwarded.error : ""})`;
  return `${head}  → ${answer} ${shownUrl(receiver)}  ${forwarded.durationMs} ms`;
}

function idsOf(event: StreamedEvent): { id?: string; customerId?: string | null } {
  try {
    const body = JSON.parse(event.body) as { id?: unknown; customer_id?: unknown };
    return {
      ...(typeof body.id === "string" && { id: body.id }),
      ...((typeof body.customer_id === "string" || body.customer_id === null) && {
        customerId: body.customer_id,
      }),
    };
  } catch {
    return {};
  }
}

/**
 * A cursor file: the cursor on its first line (all a file written before listen bound it to its
 * key had), then the line that binds it to its partner's key without holding it: `key-hmac-sha256`,
 * a salt, and the key's HMAC-SHA256 under that salt. Another key's events have cursors of their
 * own, so a file of one key never resumes another's stream.
 */
const OWNER_LINE = /^key-hmac-sha256 ([0-9a-f]{32}) ([0-9a-f]{64})$/;

/** The cursor a file holds (none when it is absent or empty), and its line for `apiKey`. */
async function readCursor(
  file: string,
  apiKey: string,
): Promise<{ cursor: string | undefined; owner: string }> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new Error(`cannot read the cursor file ${file}: ${error.message}`);
  });
  const [first = "", second = "", ...rest] = (text ?? "").trim().split(/\r?\n/);
  const cursor = first.trim();
  const owner = second.trim();
  if (cursor === "" && owner === "") return { cursor: undefined, owner: ownerLine(apiKey) };
  const bound = OWNER_LINE.exec(owner);
  if (!/^\d{1,18}$/.test(cursor) || (owner !== "" && bound === null) || rest.length > 0) {
    throw new Error(
      `the cursor file ${file} holds "${(text ?? "").trim().slice(0, 40)}", not a cursor (a whole number); remove it to start from now`,
    );
  }
  // A file written before listen bound it: it becomes this key's at its next write.
  if (bound === null) return { cursor, owner: ownerLine(apiKey) };
  const [, salt = "", mac = ""] = bound;
  if (!timingSafeEqual(Buffer.from(keyMac(salt, apiKey), "hex"), Buffer.from(mac, "hex"))) {
    throw new Error(
      `the cursor file ${file} belongs to another API key than PAYMENTS_API_KEY (each key's events have cursors of their own): give each key a cursor file of its own, or remove ${file} to start from now`,
    );
  }
  return { cursor, owner };
}

function ownerLine(apiKey: string): string {
  const salt = randomBytes(16).toString("hex");
  return `key-hmac-sha256 ${salt} ${keyMac(salt, apiKey)}`;
}

function keyMac(salt: string, apiKey: string): string {
  return createHmac("sha256", Buffer.from(salt, "hex")).update(apiKey).digest("hex");
}

/** Written whole or not at all: a listen killed mid-write leaves the previous cursor. */
async function saveCursor(file: string, cursor: string, owner: string): Promise<void> {
  const temporary = `${file}.writing`;
  await writeFile(temporary, `${cursor}\n${owner}\n`);
  await rename(temporary, file);
}

/**
 * A receiver's URL as a line shows it: a password in it (basic auth, which the delivery sends) as
 * `…`, so that it is never printed.
 */
function shownUrl(url: URL): string {
  return url.password === "" ? url.href : url.href.replace(`:${url.password}@`, ":…@");
}
