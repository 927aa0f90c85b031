// The HTTP side of the mock: every request goes through Prism, every rejection gets a problem
// body, and every answer its request id (and CORS's headers). The stateless mock answers with
// Prism's examples; the stateful one takes the sandbox's way (respondSandbox, the sandbox's one
// composition with the engine) with the mock's extras: `Prefer` and the test-mode route's hint.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ApiRequest,
  allowedMethods,
  answerPreflight,
  bodilessKey,
  ClientGoneError,
  corsHeaders,
  deprecatedUses,
  deprecationHeaders,
  hasPreferences,
  isPreflight,
  loggedId,
  loggedTarget,
  type Preferences,
  type PrismEngine,
  type PrismRefusal,
  type Problem,
  parsePrefer,
  problem,
  REQUEST_ID,
  type RequestLogger,
  readRequest,
  readRequestKey,
  refusalStatus,
  rememberedJsonText,
  requestIdOf,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
  unavailablePreference,
  VerdictMemo,
  withOneApiKey,
} from "@org/payments-engine";
import {
  isControlPath,
  type PrismAnswer,
  type RefusedRoute,
  respondSandbox,
  type Sandbox,
  type Sent,
  sandboxFailure,
  sentStatus,
} from "@org/payments-sandbox";
import type { TestModeHint } from "./test-mode-hint.js";

export interface HandlerOptions {
  log?: RequestLogger;
  /**
   * Serve the sandbox: validated requests get its stateful answers instead of Prism's examples,
   * and the engine of the test-mode document routes and validates /_sandbox/.
   */
  stateful?: { sandbox: Sandbox; controlEngine: () => Promise<PrismEngine> };
  /** Answer CORS preflights and put CORS headers on every answer. */
  cors: boolean;
  /** Names the test-mode route that does what a refused API route was asked. */
  testModeHint?: TestModeHint;
}

export function createHandler(
  engine: () => PrismEngine,
  { log, stateful, cors, testModeHint }: HandlerOptions,
) {
  const answers = new VerdictMemo<StatelessAnswer>();
  // The sandbox's requests take the sandbox's way (its composition with the engine), with the
  // mock's extras: `Prefer` asks for Prism's answer, and a refused route names the test-mode one.
  const respondStateful =
    stateful &&
    respondSandbox({
      ...stateful,
      engine,
      refuseRoute: (current, refused, preferences, request, response) =>
        prismRefusal(current, refused, preferences, request, response, testModeHint),
      answerPreferred: (answer, response) =>
        sendPrismAnswer(new OutgoingAnswer(response, [], true), answer),
    });
  return async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = requestIdOf(incoming, engine().apiKeyHeader);
    const firstHeaders = [REQUEST_ID, requestId, ...(cors ? corsHeaders(incoming) : [])];
    const id = loggedId(requestId);
    if (cors && isPreflight(incoming)) {
      setFirstHeaders(response, firstHeaders);
      answerPreflight(incoming, response);
      log?.(
        `${incoming.method} ${loggedTarget(incoming, engine().apiKeyHeader)} → 204${id} (CORS preflight)`,
      );
      return;
    }
    const answering = new OutgoingAnswer(response, firstHeaders, respondStateful !== undefined);
    const result: Sent = await (respondStateful
      ? respondStateful(incoming, answering.withFirstHeaders())
      : respondStateless(engine(), incoming, answering, answers, testModeHint)
    ).catch((error: unknown) => {
      // A client that went away mid-request is no failure of the mock, and has no one to answer.
      if (error instanceof ClientGoneError || (incoming.destroyed && !incoming.complete)) {
        return { status: "client disconnected", mismatch: "" };
      }
      // A sandbox with no room left says so; anything else is a bug of the mock.
      if (!response.headersSent) setFirstHeaders(response, firstHeaders);
      const message = (error as Error).message;
      const failure =
        sandboxFailure(error) ??
        problem(500, "mock-error", "The mock failed", [
          { location: "route", field: "", rule: "mock", message },
        ]);
      return sentStatus(sendProblem(response, failure));
    });
    log?.(
      `${incoming.method} ${loggedTarget(incoming, engine().apiKeyHeader)} → ${result.status}${id}${result.mismatch}`,
    );
  };
}

/**
 * The response, with the headers every answer carries first (its request id, and CORS's when
 * on): set on it before anything else is, except for an answer of the stateless mock's own, which
 * is written with them in one call (Node's quicker way, with no header set before it).
 */
class OutgoingAnswer {
  private readonly response: ServerResponse;
  private readonly firstHeaders: readonly string[];
  private firstHeadersSet = false;

  /** `now`: a sandbox's answers are its own, so their first headers are set at once. */
  constructor(response: ServerResponse, firstHeaders: readonly string[], now: boolean) {
    this.response = response;
    this.firstHeaders = firstHeaders;
    if (now) this.withFirstHeaders();
  }

  /** The response, its first headers set, for any answer but the stateless mock's own. */
  withFirstHeaders(): ServerResponse {
    if (!this.firstHeadersSet) {
      setFirstHeaders(this.response, this.firstHeaders);
      this.firstHeadersSet = true;
    }
    return this.response;
  }

  /** Writes the stateless mock's own answer, its first headers before its own. */
  write(written: StatelessAnswer): StatelessAnswer {
    const { pairs, sharesName } = headerPairs(written.headers);
    if (this.firstHeadersSet || sharesName) {
      this.withFirstHeaders().writeHead(written.status, written.headers).end(written.body);
    } else {
      this.response.writeHead(written.status, [...this.firstHeaders, ...pairs]).end(written.body);
    }
    return written;
  }
}

/** The headers every answer carries first; an answer's own header of one of these names is set over it. */
const FIRST_HEADERS = new Set([
  REQUEST_ID,
  "access-control-allow-origin",
  "access-control-expose-headers",
  "vary",
]);
const pairsOf = new WeakMap<object, { pairs: string[]; sharesName: boolean }>();

/** An answer's headers as names and values in turn, and whether one has a first header's name; made once per object. */
function headerPairs(headers: Record<string, string>): { pairs: string[]; sharesName: boolean } {
  let known = pairsOf.get(headers);
  if (known === undefined) {
    const names = Object.keys(headers);
    known = {
      pairs: names.flatMap((name) => [name, headers[name] as string]),
      sharesName: names.some((name) => FIRST_HEADERS.has(name.toLowerCase())),
    };
    pairsOf.set(headers, known);
  }
  return known;
}

/** Sets the answer's first headers, names and values in turn. */
function setFirstHeaders(response: ServerResponse, firstHeaders: readonly string[]): void {
  for (let index = 0; index < firstHeaders.length; index += 2) {
    response.setHeader(firstHeaders[index] as string, firstHeaders[index + 1] as string);
  }
}

/** An answer of the stateless mock's own (Prism's), as written, with its log's note. */
type StatelessAnswer = {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string | undefined;
  mismatch: string;
};
type Unreadable = Extract<Awaited<ReturnType<typeof readRequest>>, { ok: false }>;

/** The stateless mock: Prism's answers from the spec's examples (or generated data). */
async function respondStateless(
  engine: PrismEngine,
  incoming: IncomingMessage,
  answering: OutgoingAnswer,
  answers: VerdictMemo<StatelessAnswer>,
  testModeHint: TestModeHint | undefined,
): Promise<Sent> {
  // Prism's repeatable answer to a request without a body is the same again.
  const key = bodilessKey(incoming);
  if (key !== undefined) {
    const written = answers.get(engine, key);
    if (written) return answering.write(written);
  }
  const read = withOneApiKey(await readRequest(incoming, engine.segmentName), engine.apiKeyHeader);
  if (!read.ok) return sendUnreadable(answering.withFirstHeaders(), read);
  const { request, repeated, commaValued, text } = read;
  // So is its answer to a request with a body, sent again with the same bytes.
  const readKey = key ?? readRequestKey(incoming, text);
  if (key === undefined && readKey !== undefined) {
    const written = answers.get(engine, readKey);
    if (written) return answering.write(written);
  }
  if (isControlPath(request.path)) {
    return sentStatus(sendProblem(answering.withFirstHeaders(), testModeOnly(request.path)));
  }
  const prefer = parsePrefer(request.headers.prefer);
  const preferences = prefer.ok ? prefer.preferences : {};
  const outcome = engine.handle(request, preferences);
  if (outcome.kind === "error") {
    const refused = await prismRefusal(
      engine,
      outcome,
      preferences,
      request,
      answering.withFirstHeaders(),
      testModeHint,
    );
    return sentStatus(sendProblem(answering.withFirstHeaders(), refused));
  }
  const errors = [
    ...requestProblems(
      engine,
      outcome.routed.operation,
      request,
      repeated,
      outcome.inputProblems,
      commaValued,
    ),
    ...(prefer.ok ? [] : [prefer.error]),
  ];
  if (errors.length > 0) {
    return sentStatus(
      sendProblem(answering.withFirstHeaders(), requestRefusal(refusalStatus(errors), errors)),
    );
  }
  const deprecation = deprecationHeaders(deprecatedUses(outcome.routed.operation, request));
  const sent = sendPrismAnswer(answering, outcome, deprecation);
  if (readKey !== undefined && outcome.repeatable && "headers" in sent) {
    answers.set(engine, readKey, sent);
  }
  return sent;
}

function sendUnreadable(response: ServerResponse, read: Unreadable): Sent {
  // A body past the limit is not read on: the connection closes after the answer.
  if (read.status === 413) response.setHeader("connection", "close");
  return sentStatus(
    sendProblem(response, problem(read.status, read.kind, read.title, [read.error])),
  );
}

async function prismRefusal(
  engine: PrismEngine,
  outcome: RefusedRoute,
  preferences: Preferences,
  request: ApiRequest,
  response: ServerResponse,
  testModeHint: TestModeHint | undefined,
): Promise<Problem> {
  // A 404 for a path the spec has is Prism saying the preferred example or status is missing.
  return outcome.status === 404 && outcome.routed && hasPreferences(preferences)
    ? preferProblem(
        422,
        "invalid-request",
        "Invalid request",
        "prefer",
        unavailablePreference(outcome.routed.operation, preferences),
      )
    : refusedRoute(engine, outcome, request, response, testModeHint);
}

/** Prism's answer as it stands, its mismatches with the spec for the log. */
function sendPrismAnswer(
  answering: OutgoingAnswer,
  outcome: PrismAnswer,
  deprecation: Record<string, string> = {},
): Sent | StatelessAnswer {
  // The spec gives error answers no example, so an error status asked for with `Prefer: code=`
  // gets the mock's own problem body rather than an empty one.
  if (outcome.status >= 400 && outcome.body == null) {
    return sentStatus(sendProblem(answering.withFirstHeaders(), preferredStatus(outcome.status)));
  }
  const spelled = lowerCaseHeaders(outcome.headers);
  const contentType = spelled["content-type"] ?? "application/json";
  const body =
    outcome.body === undefined
      ? undefined
      : typeof outcome.body === "string" && !/json/i.test(contentType)
        ? outcome.body
        : jsonBytes(outcome.body);
  const typed =
    body === undefined || spelled["content-type"] !== undefined
      ? spelled
      : { ...spelled, "content-type": contentType };
  // A deprecated use's headers (most answers have none, and keep their shared headers object).
  const headers = Object.keys(deprecation).length === 0 ? typed : { ...typed, ...deprecation };
  // A response that breaks the spec is a bug in the spec's examples: say so in the log.
  const mismatch = outcome.outputProblems.map((p) => `${p.path?.join(".") ?? ""} ${p.message}`);
  return answering.write({
    status: outcome.status,
    headers,
    body,
    mismatch:
      mismatch.length > 0 ? ` (response differs from the spec: ${mismatch.join("; ")})` : "",
  });
}

const bytesOf = new WeakMap<object, Buffer>();

/**
 * An answer's JSON as UTF-8 bytes, made once per object (Prism's remembered answers and the pages
 * made from them are shared and never changed), so that each answer is not encoded again.
 */
function jsonBytes(value: unknown): Buffer | undefined {
  const shared = typeof value === "object" && value !== null;
  const known = shared ? bytesOf.get(value) : undefined;
  if (known !== undefined) return known;
  const text = rememberedJsonText(value);
  if (text === undefined) return undefined;
  const bytes = Buffer.from(text);
  if (shared) bytesOf.set(value, bytes);
  return bytes;
}

const lowerCased = new WeakMap<object, Record<string, string>>();

/**
 * Prism spells some header names with capitals; one spelling avoids sending a header twice.
 * Prism's remembered answers share their headers, so each is spelled once.
 */
function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  let spelled = lowerCased.get(headers);
  if (spelled === undefined) {
    spelled = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    lowerCased.set(headers, spelled);
  }
  return spelled;
}

function preferredStatus(status: number): Problem {
  const asked = `code=${status} asked for this status`;
  return preferProblem(status, "preferred-status", "Status chosen with Prefer", "code", asked);
}

/** A problem with one error, about the request's `Prefer` header. */
function preferProblem(
  status: number,
  kind: string,
  title: string,
  rule: string,
  message: string,
): Problem {
  return problem(status, kind, title, [{ location: "header", field: "Prefer", rule, message }]);
}

/**
 * A request no operation of the API answers: a 405 lists the path's methods (and sends them in
 * `Allow`), and either names the test-mode route that does what was asked, if there is one.
 */
async function refusedRoute(
  engine: PrismEngine,
  outcome: PrismRefusal,
  request: ApiRequest,
  response: ServerResponse,
  testModeHint: TestModeHint | undefined,
): Promise<Problem> {
  const allowed = outcome.status === 405 ? allowedMethods(engine, request.path) : [];
  if (allowed.length > 0) response.setHeader("allow", allowed.join(", "));
  const hint =
    outcome.status === 404 || outcome.status === 405
      ? await testModeHint?.(request.method, request.path)
      : undefined;
  return routeProblem(outcome, request.method, request.path, { allowed, hint });
}

/** A test-mode route asked of the stateless mock: it names the way to the sandbox that has it. */
function testModeOnly(path: string): Problem {
  return problem(404, "not-found", "Not found", [
    {
      location: "route",
      field: "",
      rule: "stateful",
      message: `${path} is a test-mode route, which only the stateful sandbox serves: start the mock with --stateful (payments-mock --stateful, or startMock({ stateful: true }))`,
    },
  ]);
}
