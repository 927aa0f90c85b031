// The HTTP side of the mock and the sandbox: every request goes through Prism; every rejection
// gets a problem body; a valid request to a sandbox gets its answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ApiRequest,
  allowedMethods,
  answerPreflight,
  bodilessKey,
  ClientGoneError,
  corsHeaders,
  hasPreferences,
  isPreflight,
  loggedId,
  type Preferences,
  type PrismEngine,
  type PrismOutcome,
  type PrismRefusal,
  type Problem,
  type ProblemError,
  parsePrefer,
  problem,
  REQUEST_ID,
  type RequestLogger,
  type Routed,
  readRequest,
  refusalStatus,
  rememberedJsonText,
  requestIdOf,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
  unavailablePreference,
  VerdictMemo,
} from "@org/payments-engine";
import {
  isControlPath,
  respondControl,
  type Sandbox,
  sandboxFailure,
  sendAnswer,
} from "@org/payments-sandbox";
import type { TestModeHint } from "./test-mode-hint.js";

export interface HandlerOptions {
  log?: RequestLogger;
  /** With a sandbox, validated requests get its stateful answers instead of Prism's examples. */
  sandbox?: Sandbox;
  /** Answer CORS preflights and put CORS headers on every answer. */
  cors: boolean;
  /** Names the test-mode route that does what a refused API route was asked. */
  testModeHint?: TestModeHint;
  /** With a sandbox: the engine of the test-mode document, which routes and validates /_sandbox/. */
  controlEngine?: () => Promise<PrismEngine>;
}

export function createHandler(
  engine: () => PrismEngine,
  { log, sandbox, cors, testModeHint, controlEngine }: HandlerOptions,
) {
  const verdicts = new VerdictMemo();
  const answers = new VerdictMemo<Written>();
  return async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = requestIdOf(incoming, engine().apiKeyHeader);
    const tags = [REQUEST_ID, requestId, ...(cors ? corsHeaders(incoming) : [])];
    const id = loggedId(requestId);
    if (cors && isPreflight(incoming)) {
      tag(response, tags);
      answerPreflight(incoming, response);
      log?.(`${incoming.method} ${incoming.url} → 204${id} (CORS preflight)`);
      return;
    }
    const result: { status: number | string; mismatch: string } = await respond(
      engine(),
      incoming,
      new Answering(response, tags, sandbox !== undefined),
      sandbox,
      { verdicts, answers },
      testModeHint,
      controlEngine,
    ).catch((error: unknown) => {
      // A client that went away mid-request is no failure of the mock, and has no one to answer.
      if (error instanceof ClientGoneError || (incoming.destroyed && !incoming.complete)) {
        return { status: "client disconnected", mismatch: "" };
      }
      // A sandbox with no room left says so; anything else is a bug of the mock.
      if (!response.headersSent) tag(response, tags);
      const message = (error as Error).message;
      const failure =
        sandboxFailure(error) ??
        problem(500, "mock-error", "The mock failed", [
          { location: "route", field: "", rule: "mock", message },
        ]);
      return rejected(sendProblem(response, failure));
    });
    log?.(`${incoming.method} ${incoming.url} → ${result.status}${id}${result.mismatch}`);
  };
}

type Sent = { status: number | string; mismatch: string };

/**
 * The response, with the headers every answer carries first (its request id, and CORS's when
 * on): set on it before anything else is, except for an answer of the stateless mock's own, which
 * is written with them in one call (Node's quicker way, with no header set before it).
 */
class Answering {
  private readonly response: ServerResponse;
  private readonly tags: readonly string[];
  private isTagged = false;

  /** `now`: a sandbox's answers are its own, so their first headers are set at once. */
  constructor(response: ServerResponse, tags: readonly string[], now: boolean) {
    this.response = response;
    this.tags = tags;
    if (now) this.tagged();
  }

  /** The response, its first headers set, for any answer but the stateless mock's own. */
  tagged(): ServerResponse {
    if (!this.isTagged) {
      tag(this.response, this.tags);
      this.isTagged = true;
    }
    return this.response;
  }

  /** Writes the stateless mock's own answer, its first headers before its own. */
  write(written: Written): Written {
    const { pairs, sharesName } = headerPairs(written.headers);
    if (this.isTagged || sharesName) {
      this.tagged().writeHead(written.status, written.headers).end(written.body);
    } else {
      this.response.writeHead(written.status, [...this.tags, ...pairs]).end(written.body);
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
function tag(response: ServerResponse, tags: readonly string[]): void {
  for (let index = 0; index < tags.length; index += 2) {
    response.setHeader(tags[index] as string, tags[index + 1] as string);
  }
}
/** An answer as the stateless mock wrote it, with its log's note. */
type Written = {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string | undefined;
  mismatch: string;
};
/** What the handler remembers of requests without a body: the sandbox's verdicts, the stateless mock's answers. */
type Memos = { verdicts: VerdictMemo; answers: VerdictMemo<Written> };
type Unreadable = Extract<Awaited<ReturnType<typeof readRequest>>, { ok: false }>;
type PrismResponse = Extract<PrismOutcome, { kind: "response" }>;

async function respond(
  engine: PrismEngine,
  incoming: IncomingMessage,
  answering: Answering,
  sandbox: Sandbox | undefined,
  { verdicts, answers }: Memos,
  testModeHint: TestModeHint | undefined,
  controlEngine: (() => Promise<PrismEngine>) | undefined,
): Promise<Sent> {
  // A request the sandbox answered before, sent again, is valid again: Prism need not see it.
  // The stateless mock's repeatable answer to it is the same again.
  const key = bodilessKey(incoming);
  if (key !== undefined && sandbox) {
    const known = verdicts.get(engine, key);
    if (known) {
      return sendAnswer(answering.tagged(), await sandbox.answer(known.request, known.routed));
    }
  } else if (key !== undefined) {
    const written = answers.get(engine, key);
    if (written) return answering.write(written);
  }
  const read = await readRequest(incoming, engine.segmentName);
  if (!read.ok) return sendUnreadable(answering.tagged(), read);
  const { request, repeated } = read;
  if (isControlPath(request.path)) {
    return sandbox && controlEngine
      ? respondControl(await controlEngine(), sandbox, request, repeated, answering.tagged())
      : rejected(sendProblem(answering.tagged(), testModeOnly(request.path)));
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
      answering.tagged(),
      testModeHint,
    );
    return rejected(sendProblem(answering.tagged(), refused));
  }
  const errors = [
    ...requestProblems(engine, outcome.routed.operation, request, repeated, outcome.inputProblems),
    ...(prefer.ok ? [] : [prefer.error]),
  ];
  if (errors.length > 0) {
    const refusal = invalidRequest(errors);
    // The sandbox counts it for the partner's readiness report, as it counts what it answers.
    sandbox?.refused(request, outcome.routed, refusal.status);
    return rejected(sendProblem(answering.tagged(), refusal));
  }
  // A request that states preferences asks for Prism's answer, so it leaves the sandbox untouched.
  if (sandbox && !hasPreferences(preferences)) {
    if (key) verdicts.set(engine, key, { request, routed: outcome.routed });
    return sendAnswer(answering.tagged(), await sandbox.answer(request, outcome.routed));
  }
  const sent = sendPrismAnswer(answering, outcome);
  if (key !== undefined && outcome.repeatable && "headers" in sent) answers.set(engine, key, sent);
  return sent;
}

function sendUnreadable(response: ServerResponse, read: Unreadable): Sent {
  // A body past the limit is not read on: the connection closes after the answer.
  if (read.status === 413) response.setHeader("connection", "close");
  return rejected(sendProblem(response, problem(read.status, read.kind, read.title, [read.error])));
}

async function prismRefusal(
  engine: PrismEngine,
  outcome: PrismRefusal & { routed: Routed | undefined },
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

/** The refusal of a request with problems, its status as every route's (test mode's too). */
function invalidRequest(errors: ProblemError[]): Problem {
  return requestRefusal(refusalStatus(errors), errors);
}

/** Prism's answer as it stands, its mismatches with the spec for the log. */
function sendPrismAnswer(answering: Answering, outcome: PrismResponse): Sent | Written {
  // The spec gives error answers no example, so an error status asked for with `Prefer: code=`
  // gets the mock's own problem body rather than an empty one.
  if (outcome.status >= 400 && outcome.body == null) {
    return rejected(sendProblem(answering.tagged(), preferredStatus(outcome.status)));
  }
  const spelled = lowerCaseHeaders(outcome.headers);
  const contentType = spelled["content-type"] ?? "application/json";
  const body =
    outcome.body === undefined
      ? undefined
      : typeof outcome.body === "string" && !/json/i.test(contentType)
        ? outcome.body
        : jsonBytes(outcome.body);
  const headers =
    body === undefined || spelled["content-type"] !== undefined
      ? spelled
      : { ...spelled, "content-type": contentType };
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

function rejected(status: number): { status: number; mismatch: string } {
  return { status, mismatch: "" };
}
