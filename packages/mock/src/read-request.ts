// Reads a Node request into what Prism validates: path, query, headers and the parsed body.
import type { IncomingMessage } from "node:http";
import type { PrismRequest } from "./prism.js";
import type { ProblemError } from "./problem.js";

/** Bodies larger than this are refused (413) rather than buffered without end. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type ReadResult =
  | { ok: true; request: PrismRequest }
  | { ok: false; status: 400 | 413; kind: string; title: string; error: ProblemError };

export async function readRequest(incoming: IncomingMessage): Promise<ReadResult> {
  const url = new URL(incoming.url ?? "/", "http://mock.invalid");
  const headers = flattenHeaders(incoming.headers);
  const raw = await readBody(incoming);
  if (raw === undefined) {
    return {
      ok: false,
      status: 413,
      kind: "payload-too-large",
      title: "Request body too large",
      error: {
        location: "body",
        field: "",
        rule: "maxBytes",
        message: `must be at most ${MAX_BODY_BYTES} bytes`,
      },
    };
  }
  const parsed = parseBody(raw, headers["content-type"]);
  if (!parsed.ok) {
    return {
      ok: false,
      status: 400,
      kind: "malformed-json",
      title: "Malformed JSON body",
      error: { location: "body", field: "", rule: "json", message: parsed.message },
    };
  }
  return {
    ok: true,
    request: {
      method: incoming.method ?? "GET",
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers,
      body: parsed.body,
    },
  };
}

function flattenHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/**
 * Repeated parameters (`ids=a&ids=b`) are joined with commas. Prism 5.12 reads every form-style
 * array as if `explode` were false: it would validate only the last of the repeated values, and
 * splits a comma-joined value into all of them.
 */
function queryOf(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of new Set(params.keys())) query[name] = params.getAll(name).join(",");
  return query;
}

/** The body as text, or undefined when it exceeds MAX_BODY_BYTES (read to the end all the same, so the client gets the answer). */
async function readBody(incoming: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8");
}

type ParsedBody = { ok: true; body: unknown } | { ok: false; message: string };

/** JSON bodies are parsed here so that malformed JSON gets its own clear 400. */
function parseBody(raw: string, contentType: string | undefined): ParsedBody {
  if (raw === "") return { ok: true, body: undefined };
  if (contentType !== undefined && !/[/+]json\b/i.test(contentType)) return { ok: true, body: raw };
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, message: `is not valid JSON (${(error as Error).message})` };
  }
}
