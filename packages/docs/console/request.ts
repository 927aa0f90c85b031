// Turns what the reader entered into the HTTP request a console sends: the path with its
// parameters, the query, the page's key and sub-partner, a fresh idempotency key and the body.
import type { Problem } from "./answer.ts";
import type { ConsoleOperation } from "./operation.ts";

export interface Settings {
  apiKey: string;
  subPartnerId: string;
}

export interface Entered {
  /** Field values by `${in}:${name}`, as typed. */
  values: Record<string, string>;
  /** The body as typed; sent as it is, so that a malformed one shows the sandbox's answer. */
  body: string;
}

export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The idempotency key sent, when the operation takes one. */
  idempotencyKey?: string;
}

/** The key of a field in `Entered.values`. */
export const fieldKey = (location: string, name: string) => `${location}:${name}`;

/**
 * The request for `operation` against `base` (the sandbox's URL, or the docs server's proxy).
 * Empty optional fields are left out; an empty required one is sent empty, for the sandbox to
 * name it in its answer.
 */
export function buildRequest(
  operation: ConsoleOperation,
  entered: Entered,
  settings: Settings,
  base: string,
  newKey: () => string,
): OutgoingRequest {
  const value = (location: string, name: string) =>
    (entered.values[fieldKey(location, name)] ?? "").trim();
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(value("path", name)),
  );
  const query = new URLSearchParams();
  const headers: Record<string, string> = { Accept: "application/json" };
  for (const parameter of operation.parameters) {
    const text = value(parameter.in, parameter.name);
    if (text === "" && !parameter.required) continue;
    if (parameter.in === "query") {
      for (const item of parameter.type === "array" ? listItems(text) : [text]) {
        query.append(parameter.name, item);
      }
    } else if (parameter.in === "header") {
      headers[parameter.name] = text;
    }
  }
  if (settings.apiKey !== "") headers["X-API-Key"] = settings.apiKey;
  const subPartnerId = settings.subPartnerId.trim();
  if (operation.subPartnerHeader && subPartnerId !== "") {
    headers[operation.subPartnerHeader] = subPartnerId;
  }
  const idempotencyKey = operation.idempotencyHeader ? newKey() : undefined;
  if (operation.idempotencyHeader && idempotencyKey) {
    headers[operation.idempotencyHeader] = idempotencyKey;
  }
  const search = query.toString();
  const request: OutgoingRequest = {
    url: `${base.replace(/\/+$/, "")}${path}${search ? `?${search}` : ""}`,
    method: operation.method,
    headers,
    ...(idempotencyKey && { idempotencyKey }),
  };
  if (operation.body && entered.body.trim() !== "") {
    headers["Content-Type"] = "application/json; charset=utf-8";
    request.body = entered.body;
  }
  return request;
}

/**
 * The headers fetch refuses to send (a character past Latin-1, such as a typographic hyphen or
 * quote pasted in, or a line break), each a problem naming the header and its rule, as the
 * sandbox names a field. The value is not quoted: it may be an API key.
 */
export function headerProblems(headers: Record<string, string>): Problem[] {
  return Object.entries(headers)
    .filter(([, value]) => [...value].some(unsendable))
    .map(([name]) => ({
      location: "header",
      field: name,
      rule: "latin1",
      message:
        "must be Latin-1 text on one line, which fetch can send (a typographic hyphen or quote pasted in is not)",
    }));
}

/** A character no header value can hold: past Latin-1, NUL, CR or LF. */
function unsendable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xff || code === 0 || code === 0x0a || code === 0x0d;
}

/** The items of a comma- or whitespace-separated list. */
function listItems(text: string) {
  return text.split(/[\s,]+/).filter((item) => item !== "");
}

/** A random (version 4) UUID; `crypto.randomUUID` needs a secure context, this does not. */
export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
