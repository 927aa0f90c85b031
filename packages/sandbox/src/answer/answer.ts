// What the sandbox answers: a status and a JSON body, or a problem in the mock's own format.
import {
  type Problem,
  type ProblemError,
  type ProblemLocation,
  problem,
} from "@org/payments-engine";
import { JsonText, jsonText } from "../store/json-text.js";
import type { Page } from "../store/pages.js";
import type { AnswerRecord } from "../store/sandbox-data.js";

export interface Answer extends AnswerRecord {
  /** The first answer to an `IDEMPOTENCY-KEY`, given again to a repeat of its request. */
  replayed?: boolean;
  /** Headers beside the content type (a fault's Retry-After, the rate limit's). */
  headers?: Record<string, string>;
  /** A fault's lost answer: the connection closes and nothing is sent. */
  drop?: true;
}

/** The answer's body as the client gets it. */
export function bodyText(answer: Answer): string {
  return jsonText(answer.body);
}

export function ok(body: unknown): Answer {
  return { status: 200, body };
}

export function problemAnswer(
  status: number,
  kind: string,
  title: string,
  errors: ProblemError[],
): Answer & { body: Problem } {
  return { status, body: problem(status, kind, title, errors) };
}

/** A page of a list as the API answers it: `{ items, cursor?, prev_cursor }`, or a 400 for a cursor it does not know. */
export function pageAnswer(page: Page): Answer {
  if (page.kind === "unknown-cursor") {
    return problemAnswer(400, "invalid-cursor", "Unknown cursor", [
      {
        location: "query",
        field: page.field,
        rule: "cursor",
        message: `${page.value} is not a cursor of this list (with these filters and this sub-partner)`,
      },
    ]);
  }
  // JSON.stringify({ items, cursor, prev_cursor }), cursor left out when there is none, made of
  // the items' JSON texts.
  const cursor = page.cursor === undefined ? "" : `,"cursor":${JSON.stringify(page.cursor)}`;
  const prevCursor = JSON.stringify(page.prevCursor);
  return ok(
    new JsonText(`{"items":[${page.items.join(",")}]${cursor},"prev_cursor":${prevCursor}}`),
  );
}

export function notFound(location: ProblemLocation, field: string, message: string): Answer {
  return problemAnswer(404, "not-found", "Resource not found", [
    { location, field, rule: "exists", message },
  ]);
}
