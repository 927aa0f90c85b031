/** Cursor pagination over the list operations: items, or whole pages, forwards or backwards. */
import type { MaybeOptionalInit } from "openapi-fetch";
import { PaymentsError } from "./errors.js";
import type { SendCall } from "./facade.js";
import type { CallOptions, ClientPaths, InitArg, PathsWith, SuccessData } from "./types.js";

type HasQueryParam<Op, Name extends string> = Op extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? false
    : Name extends keyof NonNullable<Q>
      ? true
      : false
  : false;

/** The GET paths that page with a `cursor` query parameter. */
export type ListPath = {
  [P in PathsWith<"get">]: HasQueryParam<ClientPaths[P]["get"], "cursor"> extends true ? P : never;
}[PathsWith<"get">];

/** One page of a list operation: `items`, `cursor` and `prev_cursor`. */
export type Page<P extends ListPath> = SuccessData<ClientPaths[P]["get"]>;

/** One item of a list operation's pages. */
export type PageItem<P extends ListPath> = NonNullable<Page<P>["items"]>[number];

export interface PaginateOptions<P extends ListPath> extends CallOptions {
  /**
   * `"backward"` follows each page's `prev_cursor` (sent as the `prev_cursor` query parameter),
   * only where the operation takes it. Default `"forward"`, following `cursor`.
   */
  direction?: HasQueryParam<ClientPaths[P]["get"], "prev_cursor"> extends true
    ? "forward" | "backward"
    : "forward";
}

/** Iterate it for every item of every page; call `pages()` to iterate the pages themselves. */
export interface Paginator<Item, PageData> extends AsyncIterable<Item> {
  pages(): AsyncIterable<PageData>;
}

export type Paginate = <P extends ListPath, Init extends MaybeOptionalInit<ClientPaths[P], "get">>(
  path: P,
  ...init: InitArg<Init, PaginateOptions<P>>
) => Paginator<PageItem<P>, Page<P>>;

interface PageShape {
  items?: unknown[];
  cursor?: string | null;
  prev_cursor?: string | null;
}

interface PaginateInit {
  params?: { query?: Record<string, unknown> };
  direction?: "forward" | "backward";
}

/** `operation` names the list operation in the error thrown when the API repeats a cursor. */
export function paginate(send: SendCall, operation: string, path: string, init: PaginateInit = {}) {
  const { direction = "forward", ...rest } = init;
  const backward = direction === "backward";
  const param = backward ? "prev_cursor" : "cursor";
  const { cursor, prev_cursor, ...firstQuery } = rest.params?.query ?? {};
  const start = backward ? prev_cursor : cursor;

  async function* pages(): AsyncGenerator<PageShape> {
    // `page_size` and the filters stay on every page; only the cursor changes.
    let query: Record<string, unknown> =
      start === undefined ? firstQuery : { ...firstQuery, [param]: start };
    const seen = new Set(start === undefined ? [] : [start]);
    for (;;) {
      const { data, error } = await send("GET", path, {
        ...rest,
        params: { ...rest.params, query },
      });
      if (error) throw error;
      const page = data as PageShape;
      yield page;
      const next = page[param];
      if (next === undefined || next === null) return;
      if (seen.has(next)) {
        throw new PaymentsError(
          `GET ${path} returned ${param} ${next} twice: pagination stopped to avoid a loop`,
          operation,
        );
      }
      seen.add(next);
      query = { ...firstQuery, [param]: next };
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items ?? [];
    },
  };
}
