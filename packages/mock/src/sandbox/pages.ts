// Real cursor pagination over a stored list. A `cursor` is the id of the first item of the next
// page; a `prev_cursor` is the id of the first item of the current page (passing it back gives
// the page before it). Lists keep creation order, so walking the pages sees every item once.
import { type Answer, ok, problemAnswer } from "./answer.js";

export const DEFAULT_PAGE_SIZE = 10;

export interface PageQuery {
  cursor?: string | undefined;
  prev_cursor?: string | undefined;
  page_size?: string | undefined;
}

export function page<T extends { id: string }>(items: T[], query: PageQuery): Answer {
  // page_size 0 is valid for the spec (minimum 0) but would never advance; it means the default.
  const size = Number(query.page_size ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE;
  let start = 0;
  let end: number;
  if (query.cursor !== undefined) {
    start = items.findIndex((item) => item.id === query.cursor);
    if (start < 0) return unknownCursor("cursor", query.cursor);
    end = Math.min(items.length, start + size);
  } else if (query.prev_cursor !== undefined) {
    end = items.findIndex((item) => item.id === query.prev_cursor);
    if (end < 0) return unknownCursor("prev_cursor", query.prev_cursor);
    start = Math.max(0, end - size);
  } else {
    end = Math.min(items.length, size);
  }
  const next = items[end]?.id;
  return ok({
    items: items.slice(start, end),
    ...(next !== undefined && { cursor: next }),
    prev_cursor: start > 0 ? (items[start]?.id ?? null) : null,
  });
}

function unknownCursor(field: string, value: string): Answer {
  return problemAnswer(400, "invalid-cursor", "Unknown cursor", [
    {
      location: "query",
      field,
      rule: "cursor",
      message: `${value} is not a cursor of this list (with these filters and this sub-partner)`,
    },
  ]);
}
