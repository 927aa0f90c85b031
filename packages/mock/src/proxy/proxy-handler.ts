// The HTTP side of the proxy: each request is read and checked as the mock checks it, sent on to
// the upstream, and its answer streamed back and checked against the spec. What breaks the spec
// is reported; with `errors`, it is refused (a request) or replaced by a 502 (a response).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Operation, PrismEngine, RequestLogger } from "@org/payments-engine";
import {
  answerPreflight,
  ClientGoneError,
  isPreflight,
  loggedId,
  MAX_ERRORS,
  type Problem,
  type ProblemError,
  problem,
  REQUEST_ID,
  type ReadResult,
  readForwardable,
  refusalStatus,
  requestIdOf,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
  setCorsHeaders,
  tagAnswer,
} from "@org/payments-engine";
import { redactor } from "../output/redact.js";
import { endToEndHeaders, type HeaderPair } from "./hop-by-hop.js";
import { MAX_CHECKED_BYTES, responseFindings } from "./response-check.js";
import type { TrafficLine } from "./traffic.js";
import { callUpstream, stalled, type Upstream } from "./upstream.js";
import {
  bodyFinding,
  type Finding,
  type FindingContext,
  gotText,
  jsonFault,
  toViolation,
  type Violation,
} from "./violations.js";

export interface ProxyHandlerOptions {
  engine: PrismEngine;
  upstream: Upstream;
  /** Refuse invalid requests and replace responses that break the spec with a 502. */
  errors: boolean;
  cors: boolean;
  log?: RequestLogger | undefined;
  /** Called with each request's violations as they are found: once for the request, once for the response. */
  report(violations: Violation[]): void;
  /** Called once the upstream has answered a request, with the status it answered. */
  traffic?(line: TrafficLine): void;
}

type Outcome = {
  status: number | string;
  violations: Violation[];
  note?: string;
  /** The relayed body's last part, held back until the answer has been checked. */
  tail?: Buffer | undefined;
};

export function createProxyHandler(options: ProxyHandlerOptions) {
  let requests = 0;
  return async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const number = ++requests;
    const requestId = tagAnswer(incoming, response, options.engine.apiKeyHeader);
    // Each key sent, not only their join: a client may send the header twice, and the upstream
    // may echo either key alone.
    const keys = incoming.headersDistinct[options.engine.apiKeyHeader.toLowerCase()] ?? [];
    const redact = redactor([...keys, ...credentialsOf(incoming)]);
    const outcome = await proxy(options, incoming, response, { number, requestId }, redact).catch(
      (error: unknown): Outcome => {
        if (error instanceof ClientGoneError)
          return { status: "client disconnected", violations: [] };
        throw error;
      },
    );
    const { log } = options;
    const found = outcome.violations.map((violation) => violation.message);
    // A line names as many as a problem lists: a page of drifted items breaks the spec thousands
    // of times, each in the report, which a line of megabytes would only bury.
    const shown = found.slice(0, MAX_ERRORS);
    const more = found.length > shown.length ? `; and ${found.length - shown.length} more` : "";
    const violations =
      found.length === 0
        ? ""
        : ` — ${found.length} violation${found.length === 1 ? "" : "s"}: ${shown.join("; ")}${more}`;
    // The upstream's own id, when it sends one, is the one its answer carries and the log names,
    // if it is one a log line can carry as it is (as a client's must be): else the proxy's own,
    // which the upstream was sent, so that its words ("— 2 violations: …") are not the log's.
    const id = loggedId(saneId(response.getHeader(REQUEST_ID)) ?? requestId);
    log?.(
      redact(
        `${incoming.method} ${shownTarget(incoming.url)} → ${outcome.status}${id}${outcome.note ?? ""}${violations}`,
      ),
    );
    // A relayed body ends only now, so that whoever has read a whole answer finds its violations
    // already reported and logged.
    // Its last part was held back for this: an answer of known length is whole with it.
    if (!response.writableEnded && !response.destroyed) response.end(outcome.tail);
  };
}

async function proxy(
  options: ProxyHandlerOptions,
  incoming: IncomingMessage,
  response: ServerResponse,
  { number, requestId }: { number: number; requestId: string },
  redact: (text: string) => string,
): Promise<Outcome> {
  const { engine, cors } = options;
  if (cors && isPreflight(incoming)) {
    setCorsHeaders(incoming, response);
    answerPreflight(incoming, response);
    return { status: 204, violations: [], note: " (CORS preflight)" };
  }
  const refuse = (body: Problem) => {
    if (cors) setCorsHeaders(incoming, response);
    return sendProblem(response, body);
  };
  const forwardable = await readForwardable(incoming, engine.segmentName);
  if (!forwardable.ok) {
    const { refusal } = forwardable;
    if (refusal.status === 413) response.setHeader("connection", "close");
    const refused = problem(refusal.status, refusal.kind, refusal.title, [refusal.error]);
    return { status: refuse(refused), violations: [] };
  }
  const { target, bytes, read } = forwardable;
  if (hasDotSegment(target.path)) {
    // `/v1` + `/../admin` is `/admin` to a server that resolves dot segments: not sent on.
    const refused = problem(400, "invalid-request", "Dot segment in the path", [
      {
        location: "path",
        field: "",
        rule: "dotSegment",
        message: `must not have a "." or ".." segment (escaped or not), which would leave the upstream's path ${options.upstream.url.pathname}`,
      },
    ]);
    return { status: refuse(refused), violations: [] };
  }
  const method = incoming.method ?? "GET";
  const checked = checkRequest(engine, read, method, target.path);
  const context: FindingContext = {
    request: number,
    method,
    target: shownTarget(incoming.url),
    operation: checked.operation?.iid ?? null,
    location: "request",
  };
  const requestViolations = checked.findings.map((finding) =>
    toViolation(finding, context, redact),
  );
  options.report(requestViolations);
  if (options.errors && checked.refusal) {
    return {
      status: refuse(redactedProblem(checked.refusal, redact)),
      violations: requestViolations,
    };
  }

  const call = callUpstream(
    options.upstream,
    incoming,
    `${target.path}${target.query === "" ? "" : `?${target.query}`}`,
    bytes,
    requestId,
  );
  // A client that goes away takes its upstream request with it.
  response.once("close", () => {
    if (!response.writableFinished) call.request.destroy();
  });
  const answer = await call.answer;
  if (!answer.ok) {
    if (response.destroyed) return { status: "client disconnected", violations: requestViolations };
    return { status: refuse(upstreamProblem(answer)), violations: requestViolations };
  }
  const exchange = { options, incoming, response, checked, context, redact, refuse };
  options.traffic?.({
    type: "exchange",
    time: new Date().toISOString(),
    request: number,
    method,
    operation: context.operation,
    status: answer.response.statusCode ?? 502,
  });
  const outcome = await answered(exchange, answer.response);
  return { ...outcome, violations: [...requestViolations, ...outcome.violations] };
}

/** A request on its way back: what the proxy knows of it once the upstream has answered. */
interface Exchange {
  options: ProxyHandlerOptions;
  incoming: IncomingMessage;
  response: ServerResponse;
  checked: RequestCheck;
  context: FindingContext;
  redact: (text: string) => string;
  /** Sends a problem instead of the upstream's answer; resolves to its status. */
  refuse: (body: Problem) => number;
}

/** The problem for an upstream that did not answer: a 504 when it timed out, else a 502. */
function upstreamProblem(failed: { status: number; message: string }): Problem {
  const [kind, title] =
    failed.status === 504
      ? ["upstream-timeout", "The upstream did not answer in time"]
      : ["upstream-unreachable", "The upstream could not be reached"];
  const error: ProblemError = {
    location: "route",
    field: "",
    rule: "upstream",
    message: failed.message,
  };
  return problem(failed.status, kind, title, [error]);
}

/**
 * Relays the upstream's answer and checks it against the spec: its violations are reported; with
 * `errors`, an answer that breaks the spec is replaced by a 502 naming each finding.
 */
async function answered(exchange: Exchange, upstreamResponse: IncomingMessage): Promise<Outcome> {
  const { options, incoming, response, checked, context, redact, refuse } = exchange;
  const status = upstreamResponse.statusCode ?? 502;
  const headers = endToEndHeaders(upstreamResponse.rawHeaders);
  if (options.cors) addCorsHeaders(incoming, headers);
  const relayed = await relay(
    upstreamResponse,
    response,
    { status, headers },
    options.errors,
    refuse,
  );
  if (!relayed.ok) return { status: relayed.reason, violations: [] };
  if (relayed.bytes === undefined || !checked.operation) {
    if (relayed.held) {
      response
        .writeHead(status, sendableReason(upstreamResponse.statusMessage), headers.flat())
        .write(relayed.bytes);
    }
    const note =
      relayed.bytes === undefined ? ` (body over ${MAX_CHECKED_BYTES} bytes, not checked)` : "";
    return { status, violations: [], note, tail: relayed.tail };
  }
  const method = incoming.method ?? "GET";
  const { findings, unchecked } = responseFindings(options.engine, checked.operation, {
    status,
    headers: upstreamResponse.headers,
    contentTypes: upstreamResponse.headersDistinct["content-type"] ?? [],
    bytes: relayed.bytes,
    bodyless: method === "HEAD" || status === 204 || status === 304,
  });
  const note = unchecked === undefined ? "" : ` (body ${unchecked}, not checked)`;
  const violations = findings.map((finding) =>
    toViolation(finding, { ...context, location: "response", status }, redact),
  );
  options.report(violations);
  if (!relayed.held) return { status, violations, note, tail: relayed.tail };
  if (violations.length > 0) {
    const replaced = problem(
      502,
      "invalid-response",
      "The upstream's response breaks the spec",
      findings.map((finding) => ({
        location: finding.location,
        field: finding.field,
        rule: finding.rule,
        message: `${finding.message}${gotText(finding)}`,
      })),
    );
    return {
      status: refuse(redactedProblem(replaced, redact)),
      violations,
      note: ` (upstream ${status})${note}`,
    };
  }
  response
    .writeHead(status, sendableReason(upstreamResponse.statusMessage), headers.flat())
    .end(relayed.bytes);
  return { status, violations, note };
}

type RequestCheck = {
  operation: Operation | undefined;
  findings: Finding[];
  /** The problem the mock answers such a request with; undefined when there is nothing wrong. */
  refusal: Problem | undefined;
};

/** The request checked as the mock checks it. */
function checkRequest(
  engine: PrismEngine,
  read: ReadResult,
  method: string,
  path: string,
): RequestCheck {
  if (!read.ok) {
    return {
      operation: engine.route(method, path),
      // The client's own body, quoted back to it in the refusal, but not in the report or log.
      findings: [
        read.error.rule === "json"
          ? { ...read.error, message: jsonFault(read.error.message) }
          : read.error,
      ],
      refusal: problem(read.status, read.kind, read.title, [read.error]),
    };
  }
  const { request, repeated, commaValued } = read;
  const checked = engine.check(request);
  if (checked.kind === "error") {
    const refusal = routeProblem(checked, request.method, request.path);
    return { operation: undefined, findings: refusal.errors, refusal };
  }
  const errors = requestProblems(
    engine,
    checked.routed.operation,
    request,
    repeated,
    checked.inputProblems,
    commaValued,
  );
  const findings = errors.map((error): Finding => {
    if (error.location === "body") return bodyFinding(error, request.body);
    const value =
      error.location === "query"
        ? request.query[error.field]
        : error.location === "header"
          ? request.headers[error.field.toLowerCase()]
          : undefined;
    return { ...error, value };
  });
  return {
    operation: checked.routed.operation,
    findings,
    refusal: errors.length > 0 ? requestRefusal(refusalStatus(errors), errors) : undefined,
  };
}

type Relayed =
  | { ok: true; held: boolean; bytes: Buffer | undefined; tail: Buffer | undefined }
  | { ok: false; reason: string };

/**
 * Streams the upstream's body to the client as it comes, keeping a copy to check (up to
 * MAX_CHECKED_BYTES: `bytes` is undefined past it), and leaves the answer for the caller to end.
 * With `hold`, nothing is sent until the body is complete, so that the caller can still replace
 * it; a body past the limit is sent on.
 */
function relay(
  upstreamResponse: IncomingMessage,
  response: ServerResponse,
  { status, headers }: { status: number; headers: HeaderPair[] },
  hold: boolean,
  refuse: (body: Problem) => number,
): Promise<Relayed> {
  return new Promise((resolve) => {
    let held = hold;
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    // The latest part sent on is held back until the next comes, the last one until the answer
    // is checked: a client reads an answer of known length as whole with its last byte.
    let last: Buffer | undefined;
    // The head goes with the first part of the body sent on (or at its end): an upstream that
    // fails before then gets its problem answered, not a connection dropped after a head.
    const writeHead = () => {
      if (response.headersSent) return;
      response.writeHead(status, sendableReason(upstreamResponse.statusMessage), headers.flat());
    };
    // The chunks held back are written at once: the upstream waits for one drain, not one each.
    const write = (chunk: Buffer) => {
      writeHead();
      if (!response.write(chunk) && !upstreamResponse.isPaused()) {
        upstreamResponse.pause();
        // The client is slow to read, not the upstream: its time limit waits meanwhile (the
        // upstream's own limits, if it has any, still apply to it).
        const { socket } = upstreamResponse;
        const limit = socket?.timeout;
        socket?.setTimeout(0);
        response.once("drain", () => {
          if (limit) socket?.setTimeout(limit);
          upstreamResponse.resume();
        });
      }
    };
    const send = (chunk: Buffer) => {
      if (last) write(last);
      last = chunk;
    };
    upstreamResponse.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (chunks && size > MAX_CHECKED_BYTES) {
        if (held) {
          held = false;
          for (const kept of chunks) send(kept);
        }
        chunks = undefined;
      }
      chunks?.push(chunk);
      if (!held) send(chunk);
    });
    upstreamResponse.once("end", () => {
      if (!held) writeHead();
      resolve({ ok: true, held, bytes: chunks && Buffer.concat(chunks), tail: last });
    });
    upstreamResponse.once("close", () => {
      if (upstreamResponse.complete) return;
      // The upstream broke off, or stalled past its time limit (or the client left, which
      // aborted the upstream request).
      const stall = stalled.get(upstreamResponse);
      const reason = response.destroyed
        ? "client disconnected"
        : stall !== undefined
          ? "upstream stalled mid-response"
          : "upstream broke off the response";
      if (response.headersSent || response.destroyed) response.destroy();
      else if (stall !== undefined) {
        refuse(upstreamProblem({ status: 504, message: stall }));
      } else {
        refuse(
          problem(502, "upstream-unreachable", "The upstream broke off its response", [
            {
              location: "route",
              field: "",
              rule: "upstream",
              message: "the upstream closed the connection mid-response",
            },
          ]),
        );
      }
      resolve({ ok: false, reason });
    });
  });
}

/**
 * Whether a path has a `.` or `..` segment, as sent or once its escapes are decoded (`%2e%2e`,
 * `..%2f`), with `\` read as `/` and a segment's `;parameters` left out (`..;/`), as some servers
 * read them.
 */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => {
    let text = segment;
    try {
      text = decodeURIComponent(segment);
    } catch {
      // A malformed escape is the request check's to report.
    }
    return text.split(/[/\\]/).some((part) => {
      const name = part.split(";")[0];
      return name === "." || name === "..";
    });
  });
}

/**
 * The request target as the report and the log show it: as the client sent it, but for the user
 * info of an absolute-form target (`http://user:password@host/…`), credentials the proxy never
 * sends on.
 */
function shownTarget(url: string | undefined): string {
  return (url ?? "").replace(/^(https?:\/\/)[^/?#]*@/i, "$1");
}

/** The id, when it is one the mock would take from a client as it is. */
function saneId(id: unknown): string | undefined {
  return typeof id === "string" && requestIdOf({ headers: { [REQUEST_ID]: id } }, "") === id
    ? id
    : undefined;
}

/**
 * What an `Authorization` header carries (a client that sends its key there too, or a token of
 * its own): the whole value and its credentials without the scheme (`Bearer …`), each a secret.
 */
function credentialsOf(incoming: IncomingMessage): string[] {
  return (incoming.headersDistinct.authorization ?? []).flatMap((value) => {
    const credentials = value.replace(/^[!#$%&'*+.^_`|~\w-]+\s+/, "");
    return credentials === value ? [value] : [value, credentials];
  });
}

/**
 * The upstream's reason phrase, when Node will send it: its parser takes a DEL in one, which its
 * server refuses to write (the answer was dropped). Else none, and Node writes the status's own.
 */
function sendableReason(reason: string | undefined): string | undefined {
  return reason !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(reason) ? reason : undefined;
}

/** The upstream's own CORS answer, if it has one, else the mock's. */
function addCorsHeaders(incoming: IncomingMessage, headers: HeaderPair[]): void {
  if (headers.some(([name]) => name.toLowerCase() === "access-control-allow-origin")) return;
  headers.push(
    ["access-control-allow-origin", incoming.headers.origin ?? "*"],
    ["access-control-expose-headers", "*"],
    ["vary", "Origin"],
  );
}

function redactedProblem(body: Problem, redact: (text: string) => string): Problem {
  return {
    ...body,
    detail: redact(body.detail),
    errors: body.errors.map((error) => ({
      ...error,
      field: redact(error.field),
      message: redact(error.message),
    })),
  };
}
