// Reads a Node request into what Prism validates: path, query, headers and the parsed body.
import type { IncomingMessage } from "node:http";
import { parse as parseMediaType } from "content-type";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";
import type { ProblemError } from "./problem.js";
import { decoded, splitTarget, type Target } from "./url.js";

/** A request as the mock reads it: what Prism routes and validates, and the sandbox answers. */
export interface ApiRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** The client closed the connection before its request was complete: nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super("the client closed the connection");
  }
}

/** Bodies larger than this are refused (413) rather than buffered without end. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type Refusal = {
  ok: false;
  status: 400 | 404 | 413 | 415 | 431;
  kind: string;
  title: string;
  error: ProblemError;
};

/**
 * A request read whole; `repeated` names the query parameters it sent more than once,
 * `commaValued` those it sent a value with a comma in (`ids=a,b`), and `text` is its body as read.
 */
export type ReadResult =
  | { ok: true; request: ApiRequest; repeated: string[]; commaValued: string[]; text: string }
  | Refusal;

/**
 * The name of the path parameter that segment `index` of a request's path stands in, or "" when
 * none does: a malformed escape there is named after it.
 */
export type SegmentName = (method: string, path: string, index: number) => string;

export async function readRequest(
  incoming: IncomingMessage,
  nameOf: SegmentName,
): Promise<ReadResult> {
  const head = readHead(incoming, nameOf);
  return head.ok ? readBytesOf(incoming, head, await readBody(incoming)) : head;
}

/** A request the proxy can send on (its target and body bytes), and how the mock reads it. */
export type ForwardableRead =
  | { ok: true; target: Target; bytes: Buffer; read: ReadResult }
  | { ok: false; refusal: Refusal };

/**
 * For the proxy, which sends the body on as it came: the body's bytes, read before anything
 * else, and the request as the mock reads it. A target that is no path, or a body past
 * MAX_BODY_BYTES, cannot be sent on and is refused.
 */
export async function readForwardable(
  incoming: IncomingMessage,
  nameOf: SegmentName,
): Promise<ForwardableRead> {
  const bytes = await readBody(incoming);
  const head = readHead(incoming, nameOf);
  const target = splitTarget(incoming.url ?? "");
  if (!target) return { ok: false, refusal: head.ok ? notAPath() : head };
  if (bytes === undefined) return { ok: false, refusal: tooLarge() };
  return { ok: true, target, bytes, read: head.ok ? readBytesOf(incoming, head, bytes) : head };
}

/** A request's line and headers, from Node or from plain values. */
type RequestHead = {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingMessage["headers"];
};

type Head = {
  ok: true;
  target: Target;
  query: { values: Record<string, string>; repeated: string[]; commaValued: string[] };
  headers: Record<string, string>;
};

/** The request line and headers, checked as far as they can be without the body. */
export function readHead(incoming: RequestHead, nameOf: SegmentName): Head | Refusal {
  const target = splitTarget(incoming.url ?? "");
  if (!target) return notAPath();
  const badSegment = target.path.includes("%")
    ? target.path.split("/").findIndex((segment) => decoded(segment) === undefined)
    : -1;
  if (badSegment !== -1) {
    return refuse(
      400,
      "malformed-escape",
      "Malformed percent-encoding",
      "path",
      nameOf(incoming.method ?? "GET", target.path, badSegment),
      "encoding",
      "is not valid percent-encoding",
    );
  }
  const query = parseQuery(target.query);
  if (!query.ok) {
    return refuse(
      400,
      "malformed-escape",
      "Malformed percent-encoding",
      "query",
      query.field,
      "encoding",
      "is not valid percent-encoding",
    );
  }
  const headers = flattenHeaders(incoming.headers);
  // Prism parses both headers with `content-type` and fails on what that parser refuses.
  const contentType = headers["content-type"];
  if (contentType !== undefined && !isMediaType(contentType)) {
    return refuse(
      400,
      "invalid-request",
      "Malformed Content-Type",
      "header",
      "Content-Type",
      "mediaType",
      "is not a media type such as application/json",
    );
  }
  if (headers.accept !== undefined) headers.accept = acceptableMediaTypes(headers.accept);
  return { ok: true, target, query, headers };
}

function readBytesOf(incoming: IncomingMessage, head: Head, bytes: Buffer | undefined): ReadResult {
  return bytes === undefined ? tooLarge() : readBodyOf(incoming, head, bytes);
}

/** A body's bytes as UTF-8, with a leading byte order mark left out; throws on bytes that are not UTF-8. */
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** The same, with U+FFFD for bytes that are not UTF-8: for bodies that are not JSON. */
const lossyUtf8 = new TextDecoder("utf-8");

/**
 * The body of a request whose head was read: its bytes are decoded here, the same way for Node's
 * requests and plain ones (a JSON body must be UTF-8, RFC 8259; a byte order mark is left out).
 */
export function readBodyOf(
  incoming: RequestHead,
  { target, query, headers }: Head,
  bytes: Uint8Array,
): ReadResult {
  const encoding = headers["content-encoding"];
  if (bytes.byteLength > 0 && encoding !== undefined && !isIdentity(encoding)) {
    return refuse(
      415,
      "invalid-request",
      "Unsupported media type",
      "header",
      "Content-Encoding",
      "encoding",
      `is ${JSON.stringify(encoding.slice(0, 40))}, which the mock does not decode: send the body unencoded (identity)`,
    );
  }
  if (bytes.byteLength > 0 && !headers["content-type"]) {
    return refuse(
      415,
      "invalid-request",
      "Unsupported media type",
      "header",
      "Content-Type",
      "mediaType",
      "is required with a body: send application/json",
    );
  }
  const isJson = bytes.byteLength > 0 && isJsonType(headers["content-type"]);
  let raw: string;
  try {
    raw = isJson ? utf8.decode(bytes) : lossyUtf8.decode(bytes);
  } catch {
    return refuse(
      400,
      "malformed-json",
      "Malformed JSON body",
      "body",
      "",
      "encoding",
      "is not valid UTF-8, which a JSON body must be (whatever its charset says)",
    );
  }
  const parsed = parseBody(raw, headers["content-type"]);
  if (!parsed.ok) {
    return refuse(400, parsed.kind, parsed.title, "body", "", parsed.rule, parsed.message);
  }
  return {
    ok: true,
    request: {
      // HEAD is answered as GET; Node leaves the body out of a HEAD response.
      method: incoming.method === "HEAD" ? "GET" : (incoming.method ?? "GET"),
      path: target.path,
      query: query.values,
      headers,
      body: parsed.body,
    },
    repeated: query.repeated,
    commaValued: query.commaValued,
    text: raw,
  };
}

/**
 * `read`, unless its API key header (`apiKeyHeader`) came more than once: each key is a partner of
 * its own, and Node and fetch hand on a repeated header's values joined with ", " (RFC 9110 lets
 * any hop join them with commas), so a key with a comma in it is two keys, or one that cannot be
 * told from two; it would be taken for a third partner's. Refused as a second Host is.
 */
export function withOneApiKey(read: ReadResult, apiKeyHeader: string): ReadResult {
  if (!read.ok || !read.request.headers[apiKeyHeader.toLowerCase()]?.includes(",")) return read;
  return refuse(
    400,
    "bad-http",
    "Bad Request",
    "header",
    apiKeyHeader,
    "unique",
    "is given more than once, or holds a comma, which joins a repeated header's values: send the partner's API key once",
  );
}

function notAPath(): Refusal {
  return refuse(
    404,
    "not-found",
    "Not found",
    "route",
    "",
    "route",
    "the request target is not a path of the API",
  );
}

/** Node's HTTP parser refuses a request line and headers past 16 KiB (its default maxHeaderSize). */
export const MAX_HEAD_BYTES = 16 * 1024;
export const HEAD_TOO_LARGE = "the request line and headers must be at most 16 KiB";

/** The refusal of a request whose line and headers are past MAX_HEAD_BYTES, in Node's words. */
export function headTooLarge(): Refusal {
  return refuse(
    431,
    "bad-http",
    "Request Header Fields Too Large",
    "route",
    "",
    "http",
    HEAD_TOO_LARGE,
  );
}

export function tooLarge(): Refusal {
  return refuse(
    413,
    "payload-too-large",
    "Request body too large",
    "body",
    "",
    "maxBytes",
    `must be at most ${MAX_BODY_BYTES} bytes`,
  );
}

function refuse(
  status: Refusal["status"],
  kind: string,
  title: string,
  location: ProblemError["location"],
  field: string,
  rule: string,
  message: string,
): Refusal {
  return { ok: false, status, kind, title, error: { location, field, rule, message } };
}

type ParsedQuery =
  | { ok: true; values: Record<string, string>; repeated: string[]; commaValued: string[] }
  | { ok: false; field: string };

/**
 * Query parameters as `application/x-www-form-urlencoded`, refusing a malformed escape instead of
 * passing it on. Repeated parameters (`ids=a&ids=b`) are joined with commas: Prism 5.12 reads
 * every form-style array as if `explode` were false, so it would validate only the last of the
 * repeated values, and splits a comma-joined value into all of them. The repeated names are
 * listed, so that a parameter that takes one value can be refused for being repeated; so are
 * the names sent a value with a comma in, which an exploded array must not take for its values.
 */
function parseQuery(query: string): ParsedQuery {
  if (query === "") return { ok: true, values: {}, repeated: [], commaValued: [] };
  // A Map, so that names such as `__proto__` or `valueOf` are names like any other.
  const values = new Map<string, string[]>();
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decoded(rawName.replaceAll("+", " "));
    const value = decoded((equals === -1 ? "" : pair.slice(equals + 1)).replaceAll("+", " "));
    if (name === undefined || value === undefined) return { ok: false, field: name ?? rawName };
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return {
    ok: true,
    values: Object.fromEntries([...values].map(([name, all]) => [name, all.join(",")])),
    repeated: [...values].filter(([, all]) => all.length > 1).map(([name]) => name),
    commaValued: [...values]
      .filter(([, all]) => all.some((value) => value.includes(",")))
      .map(([name]) => name),
  };
}

/** Enough for the media types clients send many times over; past it, they are parsed each time. */
const MAX_MEDIA_TYPES = 1_000;
const mediaTypes = new Map<string, boolean>();

/** Whether `content-type` parses `text`, remembered: a client sends the same few again and again. */
export function isMediaType(text: string): boolean {
  let parses = mediaTypes.get(text);
  if (parses === undefined) {
    try {
      parseMediaType(text);
      parses = true;
    } catch {
      parses = false;
    }
    if (mediaTypes.size < MAX_MEDIA_TYPES) mediaTypes.set(text, parses);
  }
  return parses;
}

/** Accept without its malformed entries, which RFC 9110 lets a server disregard (any type when none is left). */
function acceptableMediaTypes(accept: string): string {
  // What clients send most: one type, which parses.
  if (!accept.includes(",") && isMediaType(accept.trim())) return accept.trim();
  const entries = accept
    .split(",")
    .map((entry) => entry.trim())
    .filter(isMediaType);
  return entries.length > 0 ? entries.join(", ") : "*/*";
}

export function flattenHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(", ") : value;
    // A header named `__proto__` is a header like any other, not the object's prototype.
    if (name === "__proto__") {
      Object.defineProperty(flat, name, {
        value: text,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      flat[name] = text;
    }
  }
  return flat;
}

/**
 * The body's bytes, or undefined as soon as it passes MAX_BODY_BYTES: a body that never ends is
 * not read on (the 413 that follows closes the connection). Rejects when the client disconnects.
 */
function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      incoming.off("data", onData);
      incoming.pause();
      resolve(undefined);
    };
    incoming.on("data", onData);
    incoming.once("end", () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)),
    );
    incoming.once("error", reject);
    incoming.once("close", () => {
      if (!incoming.complete) reject(new ClientGoneError());
    });
  });
}

/** Whether a body of `contentType` is read as JSON (no type at all is refused before it is read). */
function isJsonType(contentType: string | undefined): boolean {
  return contentType === undefined || /[/+]json\b/i.test(contentType);
}

/** Whether a Content-Encoding names no coding but identity (`identity`, or a list of nothing else). */
function isIdentity(encoding: string): boolean {
  return encoding.split(",").every((coding) => /^\s*(identity)?\s*$/i.test(coding));
}

type ParsedBody =
  | { ok: true; body: unknown }
  | { ok: false; kind: string; title: string; rule: string; message: string };

/**
 * JSON bodies are parsed here so that malformed JSON gets its own clear 400, and so does JSON
 * nested deeper than MAX_JSON_DEPTH, which no operation takes and which would overflow the stack
 * of whatever walks it recursively.
 */
function parseBody(raw: string, contentType: string | undefined): ParsedBody {
  if (raw === "") return { ok: true, body: undefined };
  if (!isJsonType(contentType)) return { ok: true, body: raw };
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      kind: "too-deep",
      title: "JSON body nested too deeply",
      rule: "maxDepth",
      message: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; the mock takes at most ${MAX_JSON_DEPTH}`,
    };
  }
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch (error) {
    return {
      ok: false,
      kind: "malformed-json",
      title: "Malformed JSON body",
      rule: "json",
      message: `is not valid JSON (${(error as Error).message})`,
    };
  }
}
