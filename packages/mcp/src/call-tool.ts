/**
 * One tool call: the arguments checked against the tool's schema, the write rules applied, then
 * the operation sent through the client and its answer turned into structured content and text.
 * Nothing here throws for a bad call: every failure is a tool result with `isError`.
 */
import { PaymentsError } from "@org/payments-client";
import { argumentProblems } from "./arguments.js";
import type { IdempotencyKeys } from "./idempotency.js";
import {
  ALL_PAGES_MAX_CHARACTERS,
  ALL_PAGES_MAX_PAGES,
  ALL_PAGES_PAGE_SIZE,
  ALLOW_WRITES_FLAG,
  ERROR_BODY_MAX_CHARACTERS,
  READ_ONLY_FLAG,
} from "./limits.js";
import { errorText, redactText } from "./redact.js";
import type { SandboxProbe } from "./sandbox-probe.js";
import type { Send, SendResult } from "./send.js";
import { jsonTextOf } from "./structured-content-text.js";
import type { ToolDefinition } from "./tool-definition.js";

export interface CallContext {
  /** Taken out of what a call answers where it could be: headers, errors, their causes. */
  apiKey: string;
  send: Send;
  probe: SandboxProbe;
  allowWrites: boolean;
  /** `--read-only`: no write is sent, whatever its name. */
  readOnly: boolean;
  keys: IdempotencyKeys;
  baseUrl: string;
  log: (line: string) => void;
  /** Logs one line per call (its status and time): with `--verbose` only, a write per call costs. */
  logCall: ((line: string) => void) | undefined;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const IDEMPOTENCY_HEADER = "IDEMPOTENCY-KEY";
/** Arguments nested deeper than this are refused before anything walks them recursively. */
const MAX_DEPTH = 64;

const failure = (text: string): ToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

type Request = {
  params: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    header: Record<string, string>;
  };
  body?: unknown;
  signal?: AbortSignal;
  maxRetries?: number;
};

export async function callTool(
  context: CallContext,
  tool: ToolDefinition,
  rawArgs: Record<string, unknown> | undefined,
  /** The MCP client's cancellation of the call: it stops the request, and the pages after it. */
  signal?: AbortSignal,
): Promise<ToolResult> {
  const args = rawArgs ?? {};
  const deep = tooDeep(args);
  if (deep !== undefined) {
    return failure(
      `${tool.name} was not called: \`${deep}\` is nested deeper than ${MAX_DEPTH} levels, more than any request of the API holds.`,
    );
  }
  const problems = argumentProblems(tool.inputSchema, args);
  problems.push(...urlProblems(tool, args));
  if (problems.length > 0) {
    return failure(`${tool.name} was not called: ${problems.join("; ")}.`);
  }

  const write = tool.method !== "GET";
  if (write && context.readOnly) {
    return failure(
      `${tool.name} was not sent: it writes (${tool.method} ${tool.path}), and this server was started with ${READ_ONLY_FLAG}.`,
    );
  }
  if (tool.group === "test-mode" || (write && !context.allowWrites)) {
    const refusal = await refusalOf(context, tool, write);
    // The reason quotes what the server answered (another document's title), which may echo the key.
    if (refusal) return failure(redactText(refusal, context.apiKey));
  }

  const request = requestOf(tool, args, signal);
  let idempotencyKey: string | undefined;
  let repeated = false;
  // The test mode's routes take no key: a simulation happens each time it is asked for, so a
  // retry of one whose answer was lost or failed would move the clock or deposit a second time.
  if (write && tool.group === "test-mode") request.maxRetries = 0;
  if (write && tool.group === "api") {
    const given = tool.idempotencyArgument ? args[tool.idempotencyArgument] : undefined;
    if (typeof given === "string") idempotencyKey = given;
    else ({ key: idempotencyKey, repeated } = context.keys.keyFor(tool.name, args));
    request.params.header[IDEMPOTENCY_HEADER] = idempotencyKey;
  }

  const started = performance.now();
  try {
    const answer =
      tool.pages && args.all_pages === true
        ? await allPages(context, tool, request)
        : { result: await context.send(tool.method, tool.path, request), note: undefined };
    if ("stopped" in answer) return failure(redactText(answer.stopped, context.apiKey));
    const { result, note } = answer;
    const status = result.response.status;
    context.logCall?.(
      `${tool.name} → HTTP ${status} in ${Math.round(performance.now() - started)} ms`,
    );
    const notes = [
      note,
      idempotencyKey && writeNote(idempotencyKey, repeated, result.replayed),
      result.requestId && `request id ${redactText(result.requestId, context.apiKey)}`,
    ].filter((line): line is string => typeof line === "string" && line !== "");
    if (result.error) return apiFailure(result, notes, context.apiKey);
    return success(tool, result, notes);
  } catch (error) {
    context.logCall?.(`${tool.name} failed in ${Math.round(performance.now() - started)} ms`);
    // What went wrong underneath (a refused connection, a bad header) can quote what was sent.
    const message =
      error instanceof PaymentsError
        ? redactText(error.message, context.apiKey)
        : `${tool.name} failed: ${errorText(error, context.apiKey)}`;
    const retry =
      idempotencyKey && tool.group === "api"
        ? ` Calling it again with the same arguments reuses IDEMPOTENCY-KEY ${idempotencyKey}, so the API does it at most once.`
        : "";
    return failure(`${message}.${retry}`);
  }
}

/** The first argument (as a field path) nested deeper than MAX_DEPTH, walked without recursion. */
function tooDeep(args: Record<string, unknown>): string | undefined {
  const stack: [unknown, string, number][] = Object.entries(args).map(([k, v]) => [v, k, 1]);
  while (stack.length > 0) {
    const [value, field, depth] = stack.pop() as [unknown, string, number];
    if (value === null || typeof value !== "object") continue;
    if (depth > MAX_DEPTH) return field;
    for (const [key, item] of Object.entries(value)) {
      stack.push([item, Array.isArray(value) ? `${field}[${key}]` : `${field}.${key}`, depth + 1]);
    }
  }
  return undefined;
}

/** A lone half of a surrogate pair: `encodeURIComponent` throws on it. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** What the request's URL cannot carry of the path and query arguments, field by field. */
function urlProblems(tool: ToolDefinition, args: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, place] of Object.entries(tool.arguments)) {
    if (place.in !== "path" && place.in !== "query") continue;
    const value = args[name];
    // The URL drops an empty segment and resolves `.` and `..`: the request would reach another route.
    if (place.in === "path" && (value === "" || value === "." || value === "..")) {
      const what = value === "" ? "empty" : `\`${value}\``;
      problems.push(`\`${name}\` must not be ${what}: it is a segment of the path ${tool.path}`);
    } else if (
      [value].flat().some((item) => typeof item === "string" && LONE_SURROGATE.test(item))
    ) {
      problems.push(
        `\`${name}\` must be well-formed Unicode: it holds half of a surrogate pair, which a URL cannot carry`,
      );
    }
  }
  return problems;
}

async function refusalOf(
  context: CallContext,
  tool: ToolDefinition,
  write: boolean,
): Promise<string | undefined> {
  const state = await context.probe.state();
  if (state.kind === "sandbox") {
    if (tool.group === "api" || state.operations.has(tool.name)) return undefined;
    return `${tool.name} was not sent: the sandbox at ${context.baseUrl} does not serve it (its test-mode document has no ${tool.name}; a newer @org/payments-mock does).`;
  }
  const why =
    state.kind === "unknown"
      ? `could not tell whether ${context.baseUrl} is a sandbox: ${state.reason}`
      : `${context.baseUrl} is not a sandbox: ${state.reason}`;
  if (tool.group === "test-mode") {
    return `${tool.name} was not sent: it is a test-mode operation, which only a sandbox has, and ${why}.`;
  }
  if (write) {
    return `${tool.name} was not sent: this server sends writes (${tool.method} included) only to a sandbox, and ${why}. To allow writes to this base URL, start payments-mcp with ${ALLOW_WRITES_FLAG}.`;
  }
  return undefined;
}

function requestOf(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Request {
  const request: Request = {
    params: { path: {}, query: {}, header: {} },
    ...(signal && { signal }),
  };
  let body: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(args)) {
    // Own places only: `constructor` or `__proto__` would find Object's (the schema refuses both).
    const place = Object.hasOwn(tool.arguments, name) ? tool.arguments[name] : undefined;
    if (!place || value === undefined) continue;
    if (place.in === "body-whole") request.body = value;
    else if (place.in === "body") {
      body ??= {};
      body[place.name] = value;
    } else if (place.in === "header") request.params.header[place.name] = String(value);
    else request.params[place.in][place.name] = value;
  }
  // A body the operation takes is sent even when no field is given (`{}`).
  if (body !== undefined || Object.values(tool.arguments).some((p) => p.in === "body")) {
    request.body ??= body ?? {};
  }
  return request;
}

type PageData = { items?: unknown[]; cursor?: string | null; [field: string]: unknown };

/**
 * Every page from the given cursor on, until the last, or until the next page would take the
 * items' JSON over the cap; one answer of their items, whose `cursor` goes on from there. An API
 * that answers a cursor it answered before, or a next cursor on page after page, is left at once
 * or after at most ALL_PAGES_MAX_PAGES pages, with why.
 */
async function allPages(
  context: CallContext,
  tool: ToolDefinition,
  request: Request,
): Promise<{ result: SendResult; note: string | undefined } | { stopped: string }> {
  const query: Record<string, unknown> = {
    page_size: ALL_PAGES_PAGE_SIZE,
    ...request.params.query,
  };
  const items: unknown[] = [];
  const seen = new Set<unknown>(query.cursor === undefined ? [] : [query.cursor]);
  let pages = 0;
  let characters = 0;
  let last: { result: SendResult; page: PageData } | undefined;
  const read = () =>
    `${pages} page${pages === 1 ? "" : "s"}, ${items.length} item${items.length === 1 ? "" : "s"}`;
  for (;;) {
    const result = await context.send(tool.method, tool.path, {
      ...request,
      params: { ...request.params, query },
    });
    if (result.error) {
      // A later page's refusal names a cursor the caller never gave: say which page it was.
      const note =
        pages === 0
          ? undefined
          : `all_pages: the API answered this to page ${pages + 1}, asked with \`cursor\` ${quoteCursor(query.cursor)} (after ${read()}); call again with that cursor to go on`;
      return { result, note };
    }
    const page = (result.data ?? {}) as PageData;
    const size = JSON.stringify(page.items ?? []).length;
    if (last !== undefined && characters + size > ALL_PAGES_MAX_CHARACTERS) {
      // This page is left for the next call: the answer's cursor is the one that read it.
      const data = { ...last.page, items, cursor: query.cursor };
      return { result: { ...last.result, data }, note: `all_pages: ${read()}${CAP_NOTE}` };
    }
    items.push(...(page.items ?? []));
    pages++;
    characters += size;
    last = { result, page };
    const next = page.cursor;
    if (next === undefined || next === null) {
      const data = { ...page, items };
      return { result: { ...result, data }, note: `all_pages: ${read()}, the last page included` };
    }
    if (seen.has(next)) {
      return {
        stopped: `${tool.name} with all_pages stopped: the API answered the cursor ${quoteCursor(next)} a second time (after ${read()}), and following it would read the same pages over and over. Call ${tool.name} without all_pages and page with \`cursor\` to see what the API answers.`,
      };
    }
    if (pages >= ALL_PAGES_MAX_PAGES) {
      return {
        stopped: `${tool.name} with all_pages stopped after ${read()}: it reads at most ${ALL_PAGES_MAX_PAGES} pages in one call, and the API still answered a next cursor. Pass a larger \`page_size\`, or go on from \`cursor\` ${quoteCursor(next)}.`,
      };
    }
    seen.add(next);
    query.cursor = next;
    // A prev_cursor read the first page; sent on, it would read that page again, not this one.
    delete query.prev_cursor;
  }
}

/** A cursor as an error quotes it: JSON, and cut short, since the API made it. */
function quoteCursor(cursor: unknown): string {
  const text = JSON.stringify(cursor) ?? String(cursor);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const CAP_NOTE = `; stopped before a page that would take the answer over ${ALL_PAGES_MAX_CHARACTERS.toLocaleString("en")} characters of JSON: pass the answer's cursor to go on`;

function writeNote(key: string, repeated: boolean, replayed: boolean): string {
  const reuse = repeated
    ? " (reused: the same arguments were sent shortly before; pass a new idempotency_key to do it again)"
    : "";
  return `IDEMPOTENCY-KEY ${key}${reuse}${replayed ? "; the API replayed its first answer" : ""}`;
}

/** The API's refusal, its body included: an error body may quote the request's headers. */
function apiFailure(result: SendResult, notes: string[], apiKey: string): ToolResult {
  const error = result.error as NonNullable<SendResult["error"]>;
  // Cut after the key is taken out, so that no part of a key is left at the cut.
  const body =
    error.body === undefined || error.body === ""
      ? ""
      : `\n${cutShort(redactText(compact(error.body), apiKey))}`;
  // A redirect is answered as it came: where it points is what it says. Its URL may carry the key
  // URL-encoded, as a query does.
  const location = error.status < 400 ? result.response.headers.get("location") : null;
  const moved =
    location === null
      ? []
      : [`Location: ${redactText(redactText(location, apiKey), encodeURIComponent(apiKey))}`];
  return failure(redactText([`${error.message}${body}`, ...moved, ...notes].join("\n"), apiKey));
}

function success(tool: ToolDefinition, result: SendResult, notes: string[]): ToolResult {
  const { data } = result;
  const content = (text: string) => [{ type: "text" as const, text }];
  const extra = notes.map((text) => ({ type: "text" as const, text }));
  if (tool.output === "none") {
    const text = data === undefined ? `done (HTTP ${result.response.status})` : compact(data);
    return { content: [...content(text), ...extra] };
  }
  const structured =
    tool.output === "wrapped"
      ? { result: data }
      : data !== null && typeof data === "object" && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : undefined;
  if (structured === undefined) {
    return failure(
      `${tool.name} answered HTTP ${result.response.status} with ${data === undefined ? "no body" : "a body that is not a JSON object"}, where the spec gives an object:\n${compact(data)}`,
    );
  }
  return { content: [...content(jsonTextOf(structured)), ...extra], structuredContent: structured };
}

/** An error body as a tool error quotes it: whole up to its limit, then cut, saying how much. */
function cutShort(text: string): string {
  if (text.length <= ERROR_BODY_MAX_CHARACTERS) return text;
  const more = (text.length - ERROR_BODY_MAX_CHARACTERS).toLocaleString("en");
  return `${text.slice(0, ERROR_BODY_MAX_CHARACTERS)}… (${more} more characters of the body cut)`;
}

/** JSON without spaces: an answer is read by a model, whose context is short. */
function compact(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}
