// The webhook events a request caused: the sandbox's delivery log (`GET /_sandbox/events`, newest
// first) read before the request and again after its answer; the entries that were not there
// before are the request's (or, on a sandbox shared with others, at least happened meanwhile).

export interface SandboxEvent {
  id: string;
  topic: string;
  webhook_id?: string;
  url?: string;
  created_at?: string;
  delivered?: boolean;
  status_code?: number;
  failure_reason?: string;
  payload?: unknown;
}

/**
 * The newest page of the log, as large as it pages (100): a request rarely causes more events
 * than that, and an event that was there before is never in it as a new one.
 */
export const EVENTS_PATH = "/_sandbox/events?page_size=100";

/** The events of a `GET /_sandbox/events` answer body. */
export function eventsOf(body: unknown): SandboxEvent[] {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) throw new Error("the answer has no `items` list");
  return items.filter(
    (item): item is SandboxEvent =>
      item !== null && typeof item === "object" && typeof item.id === "string",
  );
}

/** The events of `now` that are not in `before`, oldest first. */
export function eventsSince(before: ReadonlySet<string>, now: SandboxEvent[]): SandboxEvent[] {
  return now.filter((event) => !before.has(event.id)).reverse();
}

/**
 * Reads the log `polls` times, `intervalMs` apart, reporting the new events each time: a status
 * change answers at once and delivers in the background (the sandbox gives a delivery up to
 * 2 s), so its events are recorded after the answer.
 */
export async function watchEvents({
  read,
  before,
  onUpdate,
  polls = 8,
  intervalMs = 500,
}: {
  read: () => Promise<SandboxEvent[]>;
  before: ReadonlySet<string>;
  onUpdate: (events: SandboxEvent[]) => void;
  polls?: number;
  intervalMs?: number;
}): Promise<SandboxEvent[]> {
  let found: SandboxEvent[] = [];
  for (let poll = 0; poll < polls; poll++) {
    if (poll > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    found = eventsSince(before, await read());
    onUpdate(found);
  }
  return found;
}
