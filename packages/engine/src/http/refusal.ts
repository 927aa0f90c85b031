// Refusals in the mock's words, written as problem bodies: the mock and the proxy send them alike.
import { quoted } from "../values/quoted.js";
import type { Reply } from "./plain.js";
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from "./problem.js";

/**
 * A request Prism could not route or negotiate, in the mock's words (Prism's are about itself).
 * `allowed` lists the methods the path has (for a 405); `hint` says where else to go; `surface`
 * names the document whose operations were looked in (the API's, or the test mode's).
 */
export function routeProblem(
  outcome: { status: number; title: string; detail: string },
  method: string,
  path: string,
  {
    allowed = [],
    hint,
    surface = "the API",
  }: { allowed?: readonly string[]; hint?: string | undefined; surface?: string } = {},
): Problem {
  if (outcome.status === 406) {
    return problem(406, "not-acceptable", "Not acceptable", [
      {
        location: "header",
        field: "Accept",
        rule: "mediaType",
        message: "accepts none of the media types the operation answers with",
      },
    ]);
  }
  const has = allowed.length > 0 ? ` (it has ${allowed.join(", ")})` : "";
  const [kind, title, message] =
    outcome.status === 404
      ? ["not-found", "Not found", `no operation of ${surface} has the path ${quoted(path)}`]
      : outcome.status === 405
        ? [
            "method-not-allowed",
            "Method not allowed",
            `${quoted(method)} is not an operation of ${quoted(path)}${has}`,
          ]
        : ["mock-error", outcome.title, outcome.detail];
  return problem(outcome.status, kind, title, [
    {
      location: "route",
      field: "",
      rule: "route",
      message: hint === undefined ? message : `${message}; ${hint}`,
    },
  ]);
}

export function sendProblem(response: Reply, body: Problem): number {
  if (response.headersSent) {
    response.destroy();
  } else {
    response
      .writeHead(body.status, { "content-type": PROBLEM_CONTENT_TYPE })
      .end(JSON.stringify(body));
  }
  return body.status;
}
