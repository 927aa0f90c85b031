// Checks an upstream's response against the operation with Prism's own output validator, and
// says what broke in plain words: the status, the media type, a header or a body field.
import type { IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { Operation, PrismEngine } from "@org/payments-engine";
import {
  flattenHeaders,
  isMediaType,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  type ReceivedAt,
  toProblemErrors,
  valueAt,
} from "@org/payments-engine";
import { bodyFinding, type Finding, jsonFault } from "./violations.js";

export interface ReceivedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Each Content-Type the response sent (Node's `headers` keep the first only). */
  contentTypes: readonly string[];
  /** The body as received (still content-encoded). */
  bytes: Buffer;
  /** A response that has no body by definition: to HEAD, or 204 or 304. */
  bodyless: boolean;
}

// Prism words these two without a path; the proxy names what was expected and what came.
const STATUS_MISMATCH = "Unable to match the returned status code";
const MEDIA_TYPE_MISMATCH = "The received media type";

/** Bodies up to this size are checked; a larger one (as it came, or decoded) is passed on unchecked. */
export const MAX_CHECKED_BYTES = 16 * 1024 * 1024;

// A decoder stops past the size the proxy checks: a few kilobytes of gzip can decode to gigabytes.
const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** What the response breaks of the spec's answers, and why its body was not checked, if it was not. */
export interface ResponseCheck {
  findings: Finding[];
  /** Why the body could not be checked (`decodes past … bytes`), for the log. */
  unchecked?: string | undefined;
}

/** What the response breaks of the spec's answers for `operation`. */
export function responseFindings(
  engine: PrismEngine,
  operation: Operation,
  response: ReceivedResponse,
): ResponseCheck {
  const headers = flattenHeaders(response.headers);
  const body: ParsedBody = response.bodyless ? { ok: true, body: undefined } : parseBody(response);
  const diagnostics = engine.checkResponse(operation, {
    status: response.status,
    headers: parsableHeaders(headers),
    body: body.ok ? body.body : undefined,
  });
  const findings: Finding[] = [];
  let mediaTypeBroken = false;
  for (const diagnostic of diagnostics) {
    const declared = diagnostic.message.slice(diagnostic.message.lastIndexOf(": ") + 2);
    if (diagnostic.message.startsWith(STATUS_MISMATCH)) {
      findings.push({
        location: "status",
        field: "",
        rule: "status",
        message: `is not a status the spec declares for this operation (declared: ${declared})`,
        actual: String(response.status),
      });
    } else if (diagnostic.message.startsWith(MEDIA_TYPE_MISMATCH)) {
      mediaTypeBroken = true;
      findings.push({
        location: "header",
        field: "Content-Type",
        rule: "mediaType",
        message: `must be a media type the spec declares for status ${response.status} (declared: ${declared})`,
        actual: headers["content-type"] ?? "no Content-Type",
      });
    }
  }
  // A body of a media type the spec does not declare, or one that cannot be read, is not
  // checked against the declared schema: that would only repeat the one violation.
  const checkBody = !response.bodyless && !mediaTypeBroken && body.ok && !body.unread;
  const located = diagnostics.filter((diagnostic) => (diagnostic.path ?? []).length > 0);
  const received: ReceivedAt = (location, path) =>
    location === "body"
      ? { known: body.ok, value: body.ok ? valueAt(body.body, path.join(".")) : undefined }
      : { known: true, value: headers[(path[0] ?? "").toLowerCase()] };
  for (const error of toProblemErrors(located, engine.headerNames, engine.apiKeyHeader, received)) {
    if (error.location === "body") {
      if (checkBody) findings.push(bodyFinding(error, body.ok ? body.body : undefined));
    } else if (error.field !== "") {
      findings.push({ ...error, value: headers[error.field.toLowerCase()] });
    }
  }
  if (!body.ok && !mediaTypeBroken) findings.push(body.finding);
  // A client such as fetch joins them into one media type that is neither.
  if (response.contentTypes.length > 1) {
    findings.push({
      location: "header",
      field: "Content-Type",
      rule: "repeated",
      message: "was sent more than once; it takes a single value",
      actual: response.contentTypes.join(", "),
    });
  }
  return { findings, unchecked: body.ok ? body.unread : undefined };
}

/**
 * The headers without a Content-Type that does not parse, which Prism would throw on: Prism then
 * finds no media type, and the finding names the one that came.
 */
function parsableHeaders(headers: Record<string, string>): Record<string, string> {
  const contentType = headers["content-type"];
  if (contentType === undefined || isMediaType(contentType)) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "content-type"));
}

/** A JSON body's bytes as UTF-8 (RFC 8259); throws on bytes that are not. A byte order mark stays. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `unread`: why the body is not checked (a content-coding the proxy cannot decode, or its size). */
type ParsedBody = { ok: true; body: unknown; unread?: string } | { ok: false; finding: Finding };

/** The body decoded and, when its media type is JSON, parsed. */
function parseBody(response: ReceivedResponse): ParsedBody {
  const encoding = String(response.headers["content-encoding"] ?? "identity").toLowerCase();
  let bytes = response.bytes;
  if (encoding !== "identity") {
    const decode = DECODERS[encoding];
    if (!decode) {
      const coding = JSON.stringify(encoding.slice(0, 40)).slice(1, -1);
      return { ok: true, body: undefined, unread: `in ${coding}, which the proxy does not decode` };
    }
    try {
      bytes = decode(bytes, { maxOutputLength: MAX_CHECKED_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        return { ok: true, body: undefined, unread: `decodes past ${MAX_CHECKED_BYTES} bytes` };
      }
      return {
        ok: false,
        finding: {
          location: "header",
          field: "Content-Encoding",
          rule: "encoding",
          message: "does not decode the body, so the body was not checked",
          actual: encoding,
        },
      };
    }
  }
  if (bytes.length === 0) return { ok: true, body: undefined };
  if (!/[/+]json\b/i.test(String(response.headers["content-type"] ?? ""))) {
    return { ok: true, body: bytes.toString("utf8") };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      ok: false,
      finding: {
        location: "body",
        field: "",
        rule: "encoding",
        message:
          "is not valid UTF-8, which a JSON body must be (whatever its charset says), so the body was not checked",
      },
    };
  }
  // Nothing walks a body deeper than the mock reads one: reported, passed on unchecked.
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      finding: {
        location: "body",
        field: "",
        rule: "maxDepth",
        message: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, so the body was not checked`,
      },
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      finding: {
        location: "body",
        field: "",
        rule: "json",
        message: `is not valid JSON (${jsonFault((error as Error).message)})`,
        value: text,
      },
    };
  }
}
