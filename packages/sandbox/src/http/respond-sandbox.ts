// A request to the sandbox, from its bytes to its answer: the engine of the API's document routes
// and validates it (the test mode's engine those under /_sandbox/), and the sandbox answers it.
// This is the one composition of the engine and the sandbox: the sandbox's own server
// (serve-sandbox.ts) serves it as it is, the mock's stateful mode with its extras (`Prefer`, the
// hint naming a test-mode route).
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ApiRequest,
  allowedMethods,
  bodilessKey,
  deprecatedUses,
  deprecationHeaders,
  hasPreferences,
  type PlainRequest,
  type Preferences,
  type PrismEngine,
  type PrismOutcome,
  type PrismRefusal,
  type Problem,
  parsePrefer,
  plainKey,
  problem,
  REQUEST_ID,
  type ReadResult,
  type Reply,
  type Routed,
  readPlainRequest,
  readRequest,
  refusalStatus,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
  VerdictMemo,
  withOneApiKey,
} from "@org/payments-engine";
import type { Sandbox } from "../compose-sandbox.js";
import { isControlPath } from "../test-mode/index.js";
import { respondControl } from "./respond-control.js";
import { type Sent, sendAnswer } from "./send-answer.js";

/** A request no route of the API's document answers, with where Prism routed it, if anywhere. */
export type RefusedRoute = PrismRefusal & { routed: Routed | undefined };
/** Prism's own answer to a valid request. */
export type PrismAnswer = Extract<PrismOutcome, { kind: "response" }>;

export interface SandboxRouting<R extends Reply = ServerResponse> {
  sandbox: Sandbox;
  /** The engine of the API's document (asked each time: a server may load the document again). */
  engine: () => PrismEngine;
  /** The engine of the test-mode document, which routes and validates /_sandbox/. */
  controlEngine: () => Promise<PrismEngine>;
  /**
   * The problem for a request no API route answers. Default: the route's problem, a 405 naming
   * the path's methods (and sending them in `Allow`).
   */
  refuseRoute?: (
    engine: PrismEngine,
    refused: RefusedRoute,
    preferences: Preferences,
    request: ApiRequest,
    response: R,
  ) => Promise<Problem>;
  /**
   * With it, a request's `Prefer` header is read: a valid request that states preferences gets
   * this answer (Prism's), which leaves the sandbox untouched. Without it, `Prefer` is ignored.
   */
  answerPreferred?: (answer: PrismAnswer, response: R) => Sent;
}

const NO_PREFERENCES: Preferences = {};

/**
 * Answers one request with the sandbox; the caller handles what is thrown (a client gone, a
 * failure). A Node request is read from its stream and answered on its ServerResponse; a plain one
 * (bytes, from a fetch handler or MSW) is answered on a PlainReply.
 */
export function respondSandbox<R extends Reply = ServerResponse>({
  sandbox,
  engine: currentEngine,
  controlEngine,
  refuseRoute = refuseApiRoute,
  answerPreferred,
}: SandboxRouting<R>): (incoming: IncomingMessage | PlainRequest, response: R) => Promise<Sent> {
  const verdicts = new VerdictMemo();
  return async (incoming, response) => {
    const engine = currentEngine();
    // The id the answer carries, which the request log keeps (the server set it before).
    const requestId = response.getHeader(REQUEST_ID) as string | undefined;
    // A request the sandbox answered before, sent again, is valid again: Prism need not see it.
    const plain = isPlain(incoming);
    const key = plain ? plainKey(incoming) : bodilessKey(incoming);
    if (key !== undefined) {
      const known = verdicts.get(engine, key);
      if (known) {
        setDeprecationHeaders(response, known.request, known.routed);
        return sendAnswer(response, await sandbox.answer(known.request, known.routed, requestId));
      }
    }
    const read: ReadResult = withOneApiKey(
      plain
        ? readPlainRequest(incoming, engine.segmentName)
        : await readRequest(incoming, engine.segmentName),
      engine.apiKeyHeader,
    );
    if (!read.ok) {
      // A body past the limit is not read on: the connection closes after the answer.
      if (read.status === 413) response.setHeader("connection", "close");
      return sentStatus(
        sendProblem(response, problem(read.status, read.kind, read.title, [read.error])),
      );
    }
    const { request, repeated, commaValued } = read;
    if (isControlPath(request.path)) {
      return respondControl(
        await controlEngine(),
        sandbox,
        request,
        { repeated, commaValued },
        response,
      );
    }
    const prefer = answerPreferred === undefined ? undefined : parsePrefer(request.headers.prefer);
    const preferences = prefer?.ok ? prefer.preferences : NO_PREFERENCES;
    // Prism's answer is sent only when `Prefer` asks for it; else the sandbox answers with its
    // own, and checking Prism's against the spec (compiling each response's schema) is not done.
    const prismAnswers = answerPreferred !== undefined && hasPreferences(preferences);
    const outcome = engine.handle(request, preferences, { checkResponse: prismAnswers });
    if (outcome.kind === "error") {
      const refused = await refuseRoute(engine, outcome, preferences, request, response);
      return sentStatus(sendProblem(response, refused));
    }
    const problems = requestProblems(
      engine,
      outcome.routed.operation,
      request,
      repeated,
      outcome.inputProblems,
      commaValued,
    );
    const errors = prefer?.ok === false ? [...problems, prefer.error] : problems;
    if (errors.length > 0) {
      const refusal = requestRefusal(refusalStatus(errors), errors);
      // The sandbox counts it for the partner's readiness report, as it counts what it answers.
      await sandbox.refused(request, outcome.routed, refusal.status, requestId);
      return sentStatus(sendProblem(response, refusal));
    }
    setDeprecationHeaders(response, request, outcome.routed);
    if (prismAnswers) return answerPreferred(outcome, response);
    if (key !== undefined) verdicts.set(engine, key, { request, routed: outcome.routed });
    return sendAnswer(response, await sandbox.answer(request, outcome.routed, requestId));
  };
}

function isPlain(incoming: IncomingMessage | PlainRequest): incoming is PlainRequest {
  return !("rawHeaders" in incoming);
}

/** `Deprecation` and `Sunset` on the answer to a request that uses something deprecated. */
function setDeprecationHeaders(response: Reply, request: ApiRequest, routed: Routed) {
  const headers = deprecationHeaders(deprecatedUses(routed.operation, request));
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
}

/** A 405 names the path's methods (and sends them in `Allow`); any refusal names the route. */
async function refuseApiRoute(
  engine: PrismEngine,
  refused: RefusedRoute,
  _preferences: Preferences,
  request: ApiRequest,
  response: Reply,
): Promise<Problem> {
  const allowed = refused.status === 405 ? allowedMethods(engine, request.path) : [];
  if (allowed.length > 0) response.setHeader("allow", allowed.join(", "));
  return routeProblem(refused, request.method, request.path, { allowed });
}

/** What was sent when only a status was. */
export function sentStatus(status: number): Sent {
  return { status, mismatch: "" };
}
