// The sandbox as an HTTP server of its own, with none of the mock's extras (Prism's examples,
// `Prefer`, CORS): what the sandbox's tests run against, on a free port of 127.0.0.1.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ClientGoneError,
  type ConnectionLimits,
  loggedId,
  loggedTarget,
  problem,
  REQUEST_ID,
  requestIdOf,
  sendProblem,
  serve,
} from "@org/payments-engine";
import {
  newApiKey,
  type SandboxControls,
  type SandboxPartner,
  sandboxControls,
  sandboxPartner,
} from "../controls.js";
import { createSandbox, type SandboxOptions } from "../sandbox.js";
import { testModeDocument } from "../test-mode/index.js";
import { engineOf } from "./engines.js";
import { respondSandbox, sentStatus } from "./respond-sandbox.js";
import { type Sent, sandboxFailure } from "./send-answer.js";

export interface SandboxServerOptions extends Omit<SandboxOptions, "operations"> {
  /** The API's OpenAPI document (the partner payments spec, or a test's). */
  spec: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The key the returned controls send. Default: a new key, a partner of its own. */
  apiKey?: string;
  /** Gets one line per request (method, path, status), besides the sandbox's own lines. */
  log?: (line: string) => void;
  limits?: Partial<ConnectionLimits>;
}

/** A running sandbox server, with the typed controls of the partner of `apiKey`. */
export interface RunningSandboxServer extends SandboxControls {
  url: string;
  port: number;
  apiKey: string;
  /** A partner of its own: a new key, with the controls bound to it. */
  newPartner(): SandboxPartner;
  /** Stops listening, closes every connection, then the sandbox. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Starts the sandbox on HTTP; resolves once it answers requests. */
export async function serveSandbox(options: SandboxServerOptions): Promise<RunningSandboxServer> {
  const { spec, port = 0, host = "127.0.0.1", apiKey, log, limits, ...rest } = options;
  const engine = await engineOf(spec);
  const sandbox = await createSandbox({
    ...rest,
    ...(log && { log }),
    operations: engine.operations,
  });
  const respond = respondSandbox({
    sandbox,
    engine: () => engine,
    controlEngine: () => engineOf(testModeDocument),
  });
  const handler = async (incoming: IncomingMessage, response: ServerResponse) => {
    const requestId = requestIdOf(incoming, engine.apiKeyHeader);
    response.setHeader(REQUEST_ID, requestId);
    const sent: Sent = await respond(incoming, response).catch((error: unknown) => {
      if (error instanceof ClientGoneError || (incoming.destroyed && !incoming.complete)) {
        return { status: "client disconnected", mismatch: "" };
      }
      const failure =
        sandboxFailure(error) ??
        problem(500, "sandbox-error", "The sandbox failed", [
          { location: "route", field: "", rule: "sandbox", message: (error as Error).message },
        ]);
      return sentStatus(sendProblem(response, failure));
    });
    log?.(
      `${incoming.method} ${loggedTarget(incoming, engine.apiKeyHeader)} → ${sent.status}${loggedId(requestId)}`,
    );
  };
  const served = await serve(handler, { port, host, cors: false, limits }).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw error;
    },
  );
  let stopped: Promise<void> | undefined;
  const key = apiKey ?? newApiKey();
  return {
    url: served.url,
    port: served.port,
    apiKey: key,
    ...sandboxControls(served.url, { apiKey: key }),
    newPartner: () => sandboxPartner(served.url),
    stop() {
      stopped ??= served.close().then(() => sandbox.close());
      return stopped;
    },
  };
}
