// payments-mock logs tail's work: the partner's request log (GET /_sandbox/requests), read again
// every `intervalMs` and printed as it grows, oldest first, filtered. An entry holds no body, no
// header but its X-Request-Id and IDEMPOTENCY-KEY, and no key: nothing here can print one.

/** An entry of the request log, as the test-mode document declares it. */
interface LogEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  operation_id: string;
  status: number | null;
  duration_ms: number;
  idempotency_key: string | null;
  replayed: boolean;
  fault_id: string | null;
  fault: string | null;
  request_id: string | null;
}

/** What an entry must match to be printed; each given must. */
interface TailFilter {
  operation?: string;
  /** Upper case. */
  method?: string;
  /** A status, or a class: "4xx". */
  status?: string;
  /** The path starts with this. */
  path?: string;
  requestId?: string;
}

export interface TailOptions {
  baseUrl: URL;
  apiKey: string;
  filter: TailFilter;
  format: "text" | "json";
  intervalMs: number;
  write(line: string): void;
  warn(line: string): void;
  signal: AbortSignal;
}

/** Entries read at most per page; a busy partner's pages are followed until the last seen. */
const PAGE_SIZE = 100;
/** Pages read at most per look: past them, the older new entries are skipped with a warning. */
const PAGES_PER_LOOK = 50;

export async function tailRequestLog(options: TailOptions): Promise<void> {
  const seen = await newestId(options).catch((error: Error) => {
    throw new Error(`cannot read the request log: ${error.message}`);
  });
  let last = seen;
  options.write(readyLine(options));
  let failing = false;
  while (!options.signal.aborted) {
    await sleep(options.intervalMs, options.signal);
    if (options.signal.aborted) return;
    try {
      const fresh = await entriesAfter(options, last);
      if (failing) options.warn("the sandbox answers again");
      failing = false;
      for (const entry of fresh) {
        last = entry.id;
        if (matches(entry, options.filter)) options.write(entryLine(entry, options.format));
      }
    } catch (error) {
      if (!failing)
        options.warn(`cannot read the request log (${(error as Error).message}); trying again`);
      failing = true;
    }
  }
}

/** The server does what it can filter by: the operation and the request id. */
function serverQuery(filter: TailFilter): Record<string, string> {
  return {
    ...(filter.operation !== undefined && { operation_id: filter.operation }),
    ...(filter.requestId !== undefined && { request_id: filter.requestId }),
  };
}

async function page(options: TailOptions, cursor: string | undefined) {
  const url = new URL("_sandbox/requests", options.baseUrl);
  for (const [name, value] of Object.entries({
    ...serverQuery(options.filter),
    page_size: String(PAGE_SIZE),
    ...(cursor !== undefined && { cursor }),
  })) {
    url.searchParams.set(name, value);
  }
  const response = await fetch(url, {
    headers: { "x-api-key": options.apiKey, accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
    // Not followed: the key goes to the sandbox given, never where a redirect points.
    redirect: "manual",
  }).catch((error: Error) => {
    throw new Error(((error.cause as Error | undefined) ?? error).message);
  });
  const text = await response.text();
  if (response.status !== 200) {
    const location = response.headers.get("location");
    throw new Error(
      `${url.pathname} answered ${response.status}: ${location === null ? text.slice(0, 300) : `a redirect to ${location}, not followed: give the sandbox's own URL`}`,
    );
  }
  let read: { items?: unknown; cursor?: string } | undefined;
  try {
    read = JSON.parse(text);
  } catch {
    // Not JSON (a web page): refused below.
  }
  // Entries are compared by their ids as numbers: one without such an id is no request log's.
  const items: unknown = read?.items;
  if (!Array.isArray(items) || !items.every((entry) => /^\d+$/.test(String(entry?.id)))) {
    throw new Error(
      `${url.pathname} answered something other than a page of the request log: is ${options.baseUrl.href} the sandbox (--url, PAYMENTS_BASE_URL)?`,
    );
  }
  return read as { items: LogEntry[]; cursor?: string };
}

async function newestId(options: TailOptions): Promise<string> {
  const first = await page(options, undefined);
  return first.items[0]?.id ?? "0";
}

/** The entries newer than `last`, oldest first. */
async function entriesAfter(options: TailOptions, last: string): Promise<LogEntry[]> {
  const fresh: LogEntry[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < PAGES_PER_LOOK; pages++) {
    const read = await page(options, cursor);
    const newest = read.items[0];
    if (pages === 0 && newest !== undefined && BigInt(newest.id) < BigInt(last)) {
      // Its newest entry is older than the last one seen: the log started again (ids go on
      // across a reset, not across a sandbox kept in memory restarting or a partner purged).
      options.warn(
        "the request log started again (the sandbox restarted, or the partner's data was purged): following it from its start",
      );
      return entriesAfter(options, "0");
    }
    for (const entry of read.items) {
      if (BigInt(entry.id) <= BigInt(last)) return fresh.reverse();
      fresh.push(entry);
    }
    if (read.cursor === undefined) return fresh.reverse();
    cursor = read.cursor;
  }
  options.warn(
    `more than ${PAGES_PER_LOOK * PAGE_SIZE} requests since the last look: the older ones are not shown`,
  );
  return fresh.reverse();
}

function matches(entry: LogEntry, filter: TailFilter): boolean {
  if (filter.operation !== undefined && entry.operation_id !== filter.operation) return false;
  if (filter.method !== undefined && entry.method !== filter.method) return false;
  if (filter.path !== undefined && !entry.path.startsWith(filter.path)) return false;
  if (filter.requestId !== undefined && entry.request_id !== filter.requestId) return false;
  if (filter.status !== undefined) {
    const status = entry.status === null ? "" : String(entry.status);
    const klass = /^([1-5])xx$/i.exec(filter.status)?.[1];
    if (klass !== undefined ? !status.startsWith(klass) : status !== filter.status) return false;
  }
  return true;
}

function readyLine(options: TailOptions): string {
  const filters = Object.entries(options.filter)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${value}`);
  if (options.format === "json") {
    return JSON.stringify({ type: "ready", sandbox: options.baseUrl.href, filter: options.filter });
  }
  return `Ready: tailing the request log of ${options.baseUrl.href}${filters.length > 0 ? ` (${filters.join(", ")})` : ""}; Ctrl-C stops`;
}

function entryLine(entry: LogEntry, format: "text" | "json"): string {
  if (format === "json") return JSON.stringify({ type: "request", ...entry });
  const status = entry.status ?? "no answer";
  const notes = [
    entry.replayed && "replayed",
    entry.fault !== null &&
      `fault=${entry.fault}${entry.fault_id === null ? "" : `:${entry.fault_id}`}`,
  ].filter(Boolean);
  return `${entry.at}  ${entry.method.padEnd(6)} ${entry.path}  → ${status}  ${entry.duration_ms} ms  ${entry.operation_id}  request-id=${entry.request_id ?? "-"}${notes.length > 0 ? `  ${notes.join(" ")}` : ""}`;
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
