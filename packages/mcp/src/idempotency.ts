/**
 * The `IDEMPOTENCY-KEY` of each write. An MCP client that retries a tool call (after a timeout,
 * a dropped connection) sends the same arguments again, and nothing else tells it apart from a
 * new call: so a write's arguments keep their key for a while, and a repeat within that time is
 * sent with the same key, which the API processes once. A caller that means to do the same write
 * again passes its own, new `idempotency_key`.
 */
import { createHash, randomUUID } from "node:crypto";
import { IDEMPOTENCY_WINDOW_MS } from "./limits.js";

/** Arguments as text with keys sorted, so `{a, b}` and `{b, a}` are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export interface IdempotencyKeys {
  /** The key for this write: the one its arguments had within the window, or a new one. */
  keyFor(tool: string, args: Record<string, unknown>): { key: string; repeated: boolean };
}

/** At most this many writes are remembered; the oldest go first. */
const MAX_REMEMBERED = 10_000;

export function idempotencyKeys(now: () => number = Date.now): IdempotencyKeys {
  const remembered = new Map<string, { key: string; until: number }>();
  return {
    keyFor(tool, args) {
      const digest = createHash("sha256")
        .update(`${tool}\n${canonical(args)}`)
        .digest("hex");
      const time = now();
      const known = remembered.get(digest);
      if (known && known.until > time) return { key: known.key, repeated: true };
      remembered.delete(digest);
      const key = randomUUID();
      remembered.set(digest, { key, until: time + IDEMPOTENCY_WINDOW_MS });
      if (remembered.size > MAX_REMEMBERED) {
        remembered.delete(remembered.keys().next().value as string);
      }
      return { key, repeated: false };
    },
  };
}
