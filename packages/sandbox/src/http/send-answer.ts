// A sandbox answer on the wire, and the sandbox's failures as problems.
import type { ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from "@org/payments-engine";
import { type Answer, bodyText } from "../answers/answer.js";
import { StoreFullError } from "../store/store.js";

/** What was sent, for the request log: a status, or why none was. */
export type Sent = { status: number | string; mismatch: string };

/**
 * A sandbox answer: JSON, or a problem in the mock's format when it is an error; or, for a test-mode
 * fault's lost answer, the connection closed with nothing sent.
 */
export function sendAnswer(response: ServerResponse, answer: Answer): Sent {
  if (answer.drop) {
    response.socket?.destroy();
    return { status: "closed with no answer (a test-mode fault)", mismatch: "" };
  }
  const contentType = answer.status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json";
  response
    .writeHead(answer.status, {
      ...answer.headers,
      "content-type": contentType,
      // As Stripe marks it: the first answer to this IDEMPOTENCY-KEY, sent again.
      ...(answer.replayed && { "idempotent-replayed": "true" }),
    })
    .end(bodyText(answer));
  return { status: answer.status, mismatch: "" };
}

/** A sandbox with no room left says so (507); any other failure is not the sandbox's to name. */
export function sandboxFailure(error: unknown): Problem | undefined {
  if (!(error instanceof StoreFullError)) return undefined;
  return problem(507, "sandbox-full", "Sandbox full", [
    { location: "route", field: "", rule: "storage", message: error.message },
  ]);
}
