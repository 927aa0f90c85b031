/** The numbers the tools' descriptions state and the server keeps to. */

/** `all_pages` stops once it holds this many items (it reads whole pages). */
export const ALL_PAGES_MAX_ITEMS = 250;

/** The page size `all_pages` reads with when the call gives none: the API's largest. */
export const ALL_PAGES_PAGE_SIZE = 100;

/** How long a write's arguments keep their idempotency key: a retried call within it reuses it. */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

/** The flag that lets writes reach a server that is not a sandbox. */
export const ALLOW_WRITES_FLAG = "--allow-writes";

/** The port `--http` listens on unless `--port` says otherwise. */
export const DEFAULT_HTTP_PORT = 4030;
