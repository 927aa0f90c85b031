// A request under /_sandbox/: routed and validated by the engine of the test-mode document, as the
// API's requests are by the API's, its problems in the same words; a valid one is answered by the
// sandbox.
import {
  type ApiRequest,
  allowedMethods,
  isObject,
  type Operation,
  type PrismEngine,
  type ProblemError,
  type Reply,
  refusalStatus,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
} from "@org/payments-engine";
import type { Sandbox } from "../compose-sandbox.js";
import { type Sent, sendAnswer } from "./send-answer.js";

export async function respondControl(
  engine: PrismEngine,
  sandbox: Sandbox,
  request: ApiRequest,
  query: { repeated: readonly string[]; commaValued: readonly string[] },
  response: Reply,
): Promise<Sent> {
  const checked = engine.check(request);
  if (checked.kind === "error") {
    const allowed = checked.status === 405 ? allowedMethods(engine, request.path) : [];
    if (allowed.length > 0) response.setHeader("allow", allowed.join(", "));
    const refused = routeProblem(checked, request.method, request.path, {
      allowed,
      surface: "the test mode",
      hint: "GET /_sandbox/openapi.json lists its routes",
    });
    return { status: sendProblem(response, refused), mismatch: "" };
  }
  const { operation } = checked.routed;
  const errors = [
    ...requestProblems(
      engine,
      operation,
      request,
      query.repeated,
      checked.inputProblems,
      query.commaValued,
    ),
    ...unexpectedBody(operation, request),
  ];
  if (errors.length > 0) {
    // The statuses of the API's routes: 401, 415 for a media type the operation does not take, 422.
    const refused = requestRefusal(refusalStatus(errors), errors);
    return { status: sendProblem(response, refused), mismatch: "" };
  }
  return sendAnswer(response, await sandbox.control(request, checked.routed));
}

/** A body sent to a route that takes none (an empty JSON object aside) is refused, not ignored. */
function unexpectedBody(operation: Operation, request: ApiRequest): ProblemError[] {
  const empty =
    request.body === undefined ||
    (isObject(request.body) && Object.keys(request.body).length === 0);
  if (operation.request?.body !== undefined || empty) return [];
  return [
    {
      location: "body",
      field: "",
      rule: "absent",
      message: `${operation.method.toUpperCase()} ${operation.path} takes no body; send none`,
    },
  ];
}
