// What the sandbox answers: a status and a JSON body, or a problem in the mock's own format.
import {
  type Problem,
  type ProblemError,
  type ProblemLocation,
  problem,
} from "@org/payments-engine/http/problem.js";

export interface Answer {
  status: number;
  body: unknown;
  /** The first answer to an `IDEMPOTENCY-KEY`, given again to a repeat of its request. */
  replayed?: boolean;
}

/**
 * A body already serialised: a page of stored resources, made of their stored JSON text (what
 * JSON.stringify made of them) rather than parsed and serialised again. Serialised anywhere else,
 * it is the same JSON.
 */
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The answer's body as the client gets it. */
export function bodyText(answer: Answer): string {
  return answer.body instanceof JsonText ? answer.body.text : JSON.stringify(answer.body);
}

/** The answer as JSON.stringify writes it, its body as bodyText has it (a JsonText's not parsed again). */
export function answerJson(answer: Answer): string {
  if (answer.body === undefined) return JSON.stringify({ status: answer.status });
  return `{"status":${answer.status},"body":${bodyText(answer)}}`;
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

export function notFound(location: ProblemLocation, field: string, message: string): Answer {
  return problemAnswer(404, "not-found", "Resource not found", [
    { location, field, rule: "exists", message },
  ]);
}

export function isProblem(answer: Answer): boolean {
  return answer.status >= 400;
}
