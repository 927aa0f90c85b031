/** The numbers the tools' descriptions state and the server keeps to. */

/**
 * `all_pages` stops before a page that would take its items' JSON over this many characters
 * (the first page is answered whole): about 15,000 tokens, under what MCP clients take from a
 * tool by default (Claude Code's is 25,000).
 */
export const ALL_PAGES_MAX_CHARACTERS = 50_000;

/**
 * The most pages `all_pages` reads in one call: an API that answers page after page (empty ones,
 * say) each with a next cursor would otherwise be read without end.
 */
export const ALL_PAGES_MAX_PAGES = 100;

/**
 * An API error's body is quoted in its tool error up to this many characters: a proxy's error page
 * or an echo of a large request would fill a model's context with what it cannot use.
 */
export const ERROR_BODY_MAX_CHARACTERS = 10_000;

/** The page size `all_pages` reads with when the call gives none: the API's largest. */
export const ALL_PAGES_PAGE_SIZE = 100;

/** How long a write's arguments keep their idempotency key: a retried call within it reuses it. */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

/** The flag that lets writes reach a server that is not a sandbox. */
export const ALLOW_WRITES_FLAG = "--allow-writes";

/** The flag that lists only the tools that read, and refuses every write. */
export const READ_ONLY_FLAG = "--read-only";

/** The port `--http` listens on unless `--port` says otherwise. */
export const DEFAULT_HTTP_PORT = 4030;

/** How long an HTTP session may go without a request open (its client gone) before it is closed. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
