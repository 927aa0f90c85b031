// Real cursor pagination over a stored list. A `cursor` is the id of the first item of the next
// page; a `prev_cursor` is the id of the first item of the current page (passing it back gives
// the page before it). Lists keep creation order, so walking the pages sees every item once.

const DEFAULT_PAGE_SIZE = 10;

export interface PageQuery {
  cursor?: string | undefined;
  prev_cursor?: string | undefined;
  page_size?: string | undefined;
}

/** A list in creation order, read a window at a time (from an array, or through an index). */
export interface PageSource<T extends { id: string }> {
  /** The position of the item with the id; undefined when it is not in the list. */
  position(id: string): Promise<number | undefined>;
  /** Up to `limit` items from `position` on (all from the start when undefined), in order. */
  from(position: number | undefined, limit: number): Promise<Positioned<T>[]>;
  /** Up to `limit` items just before `position`, in order. */
  before(position: number, limit: number): Promise<Positioned<T>[]>;
  /** The item as JSON.stringify writes it. */
  json(item: T): string;
}

/**
 * One page of a list: its items as JSON texts, the cursor of the next page (none on the last)
 * and of this one when a page comes before it (null on the first); or the cursor asked for, when
 * the list has no such item.
 */
export type Page =
  | { kind: "page"; items: string[]; cursor: string | undefined; prevCursor: string | null }
  | { kind: "unknown-cursor"; field: "cursor" | "prev_cursor"; value: string };

export interface Positioned<T> {
  position: number;
  item: T;
}

export async function page<T extends { id: string }>(
  source: PageSource<T>,
  query: PageQuery,
): Promise<Page> {
  const size = pageSize(query.page_size);
  let window: Positioned<T>[];
  let next: string | undefined;
  if (query.prev_cursor !== undefined) {
    const end = await source.position(query.prev_cursor);
    if (end === undefined) {
      return { kind: "unknown-cursor", field: "prev_cursor", value: query.prev_cursor };
    }
    window = await source.before(end, size);
    next = query.prev_cursor;
  } else {
    const start = query.cursor === undefined ? undefined : await source.position(query.cursor);
    if (query.cursor !== undefined && start === undefined) {
      return { kind: "unknown-cursor", field: "cursor", value: query.cursor };
    }
    const read = await source.from(start, size + 1);
    window = read.slice(0, size);
    next = read[size]?.item.id;
  }
  const first = window[0];
  // The first page has nothing before it: no need to look.
  const paged = query.cursor !== undefined || query.prev_cursor !== undefined;
  const hasEarlier =
    paged && first !== undefined && (await source.before(first.position, 1)).length > 0;
  return {
    kind: "page",
    items: window.map(({ item }) => source.json(item)),
    cursor: next,
    prevCursor: hasEarlier ? first.item.id : null,
  };
}

/**
 * The items a page holds. Where a list declares `page_size`, the engine has checked it (an integer,
 * 0 to 100); 0 is valid there but would never advance, so it means the default. A list that does
 * not declare it (fee profiles) gets the default for anything but a whole number from 1 up.
 */
function pageSize(text: string | undefined): number {
  const size = Number(text);
  return Number.isSafeInteger(size) && size >= 1 ? size : DEFAULT_PAGE_SIZE;
}

/** A page source over a list already in memory. */
export function arraySource<T extends { id: string }>(items: T[]): PageSource<T> {
  const positioned = (start: number, end: number) =>
    items.slice(start, end).map((item, offset) => ({ position: start + offset, item }));
  return {
    position: async (id) => {
      const index = items.findIndex((item) => item.id === id);
      return index < 0 ? undefined : index;
    },
    from: async (position, limit) => positioned(position ?? 0, (position ?? 0) + limit),
    before: async (position, limit) => positioned(Math.max(0, position - limit), position),
    json: (item) => JSON.stringify(item),
  };
}
