// A sandbox on HTTP for the sandbox's own tests (its migrations, seen through its answers): the
// engine routes and validates each request, the sandbox answers it, as the mock composes them, with
// none of the mock's extras (Prefer, CORS, hints). Listens on a free port of 127.0.0.1.
import {
  createPrismEngine,
  type PrismEngine,
  problem,
  readRequest,
  requestProblems,
  requestRefusal,
  routeProblem,
  sendProblem,
  serve,
} from "@org/payments-engine";
import { specPath } from "@org/payments-spec";
import { respondControl, sandboxFailure, sendAnswer } from "../../src/http/index.js";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox.js";
import { isControlPath, testModeDocument } from "../../src/test-mode/index.js";

export interface HttpSandbox {
  url: string;
  stop(): Promise<void>;
}

let engines: Promise<{ api: PrismEngine; control: PrismEngine }> | undefined;

/** The API's engine and the test mode's, made once for the test run. */
function enginesOnce() {
  engines ??= Promise.all([
    createPrismEngine(specPath, false),
    createPrismEngine(testModeDocument, false),
  ]).then(([api, control]) => ({ api, control }));
  return engines;
}

export async function startHttpSandbox(
  options: Omit<SandboxOptions, "operations">,
): Promise<HttpSandbox> {
  const { api, control } = await enginesOnce();
  const sandbox = await createSandbox({ ...options, operations: api.operations });
  const served = await serve(
    async (incoming, response) => {
      try {
        await respond(api, control, sandbox, incoming, response);
      } catch (error) {
        const message = (error as Error).message;
        const failure =
          sandboxFailure(error) ??
          problem(500, "sandbox-error", "The sandbox failed", [
            { location: "route", field: "", rule: "sandbox", message },
          ]);
        sendProblem(response, failure);
      }
    },
    { port: 0, host: "127.0.0.1", cors: false },
  ).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  return {
    url: served.url,
    stop: () => served.close().then(() => sandbox.close()),
  };
}

async function respond(
  api: PrismEngine,
  control: PrismEngine,
  sandbox: Sandbox,
  incoming: Parameters<typeof readRequest>[0],
  response: Parameters<typeof sendAnswer>[0],
): Promise<void> {
  const read = await readRequest(incoming, api.segmentName);
  if (!read.ok) {
    sendProblem(response, problem(read.status, read.kind, read.title, [read.error]));
    return;
  }
  const { request, repeated } = read;
  if (isControlPath(request.path)) {
    await respondControl(control, sandbox, request, repeated, response);
    return;
  }
  const outcome = await api.handle(request);
  if (outcome.kind === "error") {
    sendProblem(response, routeProblem(outcome, request.method, request.path, { allowed: [] }));
    return;
  }
  const errors = requestProblems(
    api,
    outcome.routed.operation,
    request,
    repeated,
    outcome.inputProblems,
  );
  if (errors.length > 0) {
    sendProblem(response, requestRefusal(422, errors));
    return;
  }
  sendAnswer(response, await sandbox.answer(request, outcome.routed));
}
