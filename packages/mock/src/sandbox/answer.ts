// What the sandbox answers: a status and a JSON body, or a problem in the mock's own format.
import { type Problem, type ProblemError, type ProblemLocation, problem } from "../problem.js";

export interface Answer {
  status: number;
  body: unknown;
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
