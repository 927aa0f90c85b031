// The HTTP side of the mock: every request goes through Prism; every rejection gets a problem body.
import type { IncomingMessage, ServerResponse } from "node:http";
import { toProblemErrors } from "./diagnostics.js";
import type { PrismEngine } from "./prism.js";
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from "./problem.js";
import { ClientGoneError, readRequest } from "./read-request.js";
import type { Answer } from "./sandbox/answer.js";
import { isControlPath, type Sandbox } from "./sandbox/sandbox.js";

/** One line per request for the log: method, path, status. Headers (and so the API key) are never logged. */
export type RequestLogger = (line: string) => void;

/** With a sandbox, validated requests get its stateful answers instead of Prism's examples. */
export function createHandler(
  engine: () => PrismEngine,
  log: RequestLogger | undefined,
  sandbox?: Sandbox,
) {
  return async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const result: { status: number | string; mismatch: string } = await respond(
      engine(),
      incoming,
      response,
      sandbox,
    ).catch((error: unknown) => {
      // A client that went away mid-request is no failure of the mock, and has no one to answer.
      if (error instanceof ClientGoneError || (incoming.destroyed && !incoming.complete)) {
        return { status: "client disconnected", mismatch: "" };
      }
      sendProblem(
        response,
        problem(500, "mock-error", "The mock failed", [
          { location: "route", field: "", rule: "mock", message: (error as Error).message },
        ]),
      );
      return { status: 500, mismatch: "" };
    });
    log?.(`${incoming.method} ${incoming.url} → ${result.status}${result.mismatch}`);
  };
}

async function respond(
  engine: PrismEngine,
  incoming: IncomingMessage,
  response: ServerResponse,
  sandbox: Sandbox | undefined,
): Promise<{ status: number; mismatch: string }> {
  const read = await readRequest(incoming, engine.operations);
  if (!read.ok) {
    // A body past the limit is not read on: the connection closes after the answer.
    if (read.status === 413) response.setHeader("connection", "close");
    return rejected(
      sendProblem(response, problem(read.status, read.kind, read.title, [read.error])),
    );
  }
  if (sandbox && isControlPath(read.request.path)) {
    return sendAnswer(response, await sandbox.control(read.request));
  }
  const outcome = await engine.handle(read.request);
  if (outcome.kind === "error") {
    return rejected(
      sendProblem(response, routeProblem(outcome, read.request.method, read.request.path)),
    );
  }
  const errors = toProblemErrors(outcome.inputProblems, engine.headerNames, engine.apiKeyHeader);
  if (errors.length > 0) {
    const unauthorized = outcome.status === 401;
    return rejected(
      sendProblem(
        response,
        problem(
          outcome.status,
          unauthorized ? "unauthorized" : "invalid-request",
          unauthorized ? "Missing or invalid API key" : "Invalid request",
          errors,
        ),
      ),
    );
  }
  if (sandbox) return sendAnswer(response, await sandbox.answer(read.request));
  // Prism spells some header names with capitals; one spelling avoids sending a header twice.
  const headers = Object.fromEntries(
    Object.entries(outcome.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const contentType = headers["content-type"] ?? "application/json";
  const body =
    outcome.body === undefined
      ? undefined
      : typeof outcome.body === "string" && !/json/i.test(contentType)
        ? outcome.body
        : JSON.stringify(outcome.body);
  if (body !== undefined) headers["content-type"] = contentType;
  response.writeHead(outcome.status, headers).end(body);
  // A response that breaks the spec is a bug in the spec's examples: say so in the log.
  const mismatch = outcome.outputProblems.map((p) => `${p.path?.join(".") ?? ""} ${p.message}`);
  return {
    status: outcome.status,
    mismatch:
      mismatch.length > 0 ? ` (response differs from the spec: ${mismatch.join("; ")})` : "",
  };
}

function rejected(status: number): { status: number; mismatch: string } {
  return { status, mismatch: "" };
}

/** A request that reaches no operation, in the mock's words (Prism's own are about its router). */
function routeProblem(
  outcome: { status: number; title: string; detail: string },
  method: string,
  path: string,
): Problem {
  const [kind, title, message] =
    outcome.status === 404
      ? ["not-found", "Not found", `no operation of the API has the path ${path}`]
      : outcome.status === 405
        ? ["method-not-allowed", "Method not allowed", `${method} is not an operation of ${path}`]
        : ["mock-error", outcome.title, outcome.detail];
  return problem(outcome.status, kind, title, [
    { location: "route", field: "", rule: "route", message },
  ]);
}

function sendProblem(response: ServerResponse, body: Problem): number {
  if (response.headersSent) {
    response.destroy();
  } else {
    response
      .writeHead(body.status, { "content-type": PROBLEM_CONTENT_TYPE })
      .end(JSON.stringify(body));
  }
  return body.status;
}

/** A sandbox answer: JSON, or a problem in the mock's format when it is an error. */
function sendAnswer(
  response: ServerResponse,
  answer: Answer,
): { status: number; mismatch: string } {
  const contentType = answer.status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json";
  response
    .writeHead(answer.status, { "content-type": contentType })
    .end(JSON.stringify(answer.body));
  return { status: answer.status, mismatch: "" };
}
