// startMock(): the mock as an in-process HTTP server, for tests and for the CLI.
import { readFileSync } from "node:fs";
import type { RequestListener } from "node:http";
import {
  bundledSpecPath,
  type ConnectionLimits,
  createPrismEngine,
  type PrismEngine,
  problem,
  type RequestLogger,
  sendProblem,
  serve,
} from "@org/payments-engine";
import type { DeliveryChaos } from "@org/payments-sandbox";
import {
  createSandbox,
  newApiKey,
  type Sandbox,
  type SandboxControls,
  type SandboxPartner,
  sandboxControls,
  sandboxPartner,
} from "@org/payments-sandbox";
import { createTestModeEngine } from "./fixtures/test-mode-engine.js";
import { createHandler } from "./mock-handler.js";
import { testModeHints } from "./test-mode-hint.js";
import { watchFile } from "./watch-file.js";

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Generate response data from the schemas instead of returning the spec's examples. Default false. */
  dynamic?: boolean;
  /** Path of the OpenAPI document to mock. Default: the copy of the partner payments spec shipped in the package. */
  spec?: string;
  /** Reload the spec when its file changes. Default false. */
  watch?: boolean;
  /** Called with one line per request (method, path, status), and on a spec reload. */
  log?: RequestLogger;
  /** Serve the stateful sandbox (see the README) instead of the spec's examples. Default false. */
  stateful?: boolean;
  /**
   * Sandbox only: where its data persists: a SQLite database file (a payments-mock 0.1 JSON state
   * file there is migrated into one, the JSON kept as a backup), or a `postgres://` URL that
   * several mocks share. Default: none (data lives in memory).
   */
  state?: string;
  /** Sandbox only: a seed file's path or a seed object. Default: a seed made of the spec's examples. */
  seed?: string | object;
  /**
   * Sandbox only: the API key whose partner starts with the whole seed. Every other key is a
   * partner that starts with the seed's documents, fee profiles and rates only. Default
   * `sandbox-key` (the docs console's).
   */
  exampleKey?: string;
  /**
   * Sandbox only: the key the returned sandbox functions (`advanceClock`, `events`, …) send, so
   * the partner they act on. Default: a new key, a partner of this mock's caller's own.
   */
  apiKey?: string;
  /**
   * Sandbox only: days after its last request that a partner's data is purged, so that a store
   * where each test makes a key does not grow forever; 0 keeps every partner. Default 30.
   */
  idleDays?: number;
  /**
   * Sandbox only: the most partners (API keys) it keeps, so that a shared sandbox's memory or
   * database does not grow with every new key. A new key beyond them takes the place of the
   * partner idle longest, if one has been idle 15 minutes; otherwise it is refused with a 503
   * problem (`partner-limit`) naming the limit. Keys it knows go on. 0 keeps any number.
   * Default 1000.
   */
  maxPartners?: number;
  /**
   * Sandbox only: failure rehearsal, the test mode's fault rules, rate limit and request log per
   * API key. Default true; false leaves them out (their routes answer 404), as a baseline.
   */
  rehearsal?: boolean;
  /**
   * Sandbox only: the readiness profile's YAML file (see the README's "Readiness"), instead of
   * the default one. A bad profile rejects startMock with its file, line and rule.
   */
  readinessProfile?: string;
  /**
   * Sandbox only: count requests, deliveries and the states resources reach for the readiness
   * report. Default true; false is for measuring what counting costs (every report is then empty).
   */
  countReadiness?: boolean;
  /**
   * Sandbox only: duplicate and reorder webhook deliveries (see the README's "Webhook
   * delivery"), the same way for the same `seed`. Default: off.
   */
  deliveryChaos?: DeliveryChaos;
  /**
   * Sandbox only: how often (ms) an idle event stream (GET /_sandbox/events/stream) gets a
   * heartbeat comment. Default 15 000.
   */
  eventStreamHeartbeatMs?: number;
  /** Answer CORS preflights and put CORS headers on every answer, so browser apps can call the mock. Default true. */
  cors?: boolean;
  /** Connection time limits in ms; see the README's "Limits". Defaults: headers 10 000, whole request 30 000, keep-alive idle 5 000. */
  limits?: Partial<ConnectionLimits>;
}

export type { ConnectionLimits, DeliveryChaos };

export interface RunningMock {
  /** Base URL, such as `http://127.0.0.1:4010`; pass it as the client's `baseUrl`. */
  url: string;
  port: number;
  /** Stops listening and closes every open connection. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * A running sandbox, with typed functions for the clock, simulations and event log of the
 * partner of `apiKey`.
 */
export interface RunningSandbox extends RunningMock, SandboxControls {
  /** The key the functions send (`apiKey`'s, or a new one). */
  apiKey: string;
  /** A partner of its own for one test: a new key, with these functions bound to it. */
  newPartner(): SandboxPartner;
}

/**
 * The engine of the test-mode document, made at the first /_sandbox/ request (or the first refused
 * route, whose problem names the test-mode route that does what it asked): reading a document
 * loads Prism's OpenAPI reader, which a run that never moves the sandbox need not pay for.
 */
function testModeEngine(): () => Promise<PrismEngine> {
  let engine: Promise<PrismEngine> | undefined;
  return () => {
    engine ??= createTestModeEngine();
    return engine;
  };
}

/** The answer to every request while the sandbox's store opens: 503, ask again in a second. */
function startingHandler(): RequestListener {
  return (incoming, response) => {
    incoming.resume();
    response.setHeader("retry-after", "1");
    sendProblem(
      response,
      problem(503, "not-ready", "Sandbox not ready", [
        {
          location: "route",
          field: "",
          rule: "ready",
          message:
            "the sandbox is starting: its store is opening; ask again shortly (GET /_sandbox/health answers 200 once it is ready)",
        },
      ]),
    );
  };
}

/**
 * Opens the sandbox; while its Postgres does not take connections yet (a team's database that
 * starts with it), tries again every STORE_RETRY_MS, up to STORE_WAIT_MS in all.
 */
async function openSandbox(open: () => Promise<Sandbox>): Promise<Sandbox> {
  const deadline = performance.now() + STORE_WAIT_MS;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!unreachable(error) || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
    }
  }
}

const STORE_RETRY_MS = 500;
const STORE_WAIT_MS = 60_000;

/** Whether the store failed because its server does not take connections (yet). */
function unreachable(error: unknown): boolean {
  const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
  return ["ECONNREFUSED", "ECONNRESET", "57P03", "EAI_AGAIN"].includes(String(code));
}

/** This package's version, which GET /_sandbox/health reports (package.json is beside src/ and dist/). */
const MOCK_VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** Starts the mock and resolves once it answers requests. */
export function startMock(options: MockOptions & { stateful: true }): Promise<RunningSandbox>;
export function startMock(options?: MockOptions): Promise<RunningMock>;
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const {
    port = 0,
    host = "127.0.0.1",
    dynamic = false,
    spec = bundledSpecPath(),
    log,
    cors = true,
  } = options;
  let engine: PrismEngine = await createPrismEngine(spec, dynamic);
  const testMode = testModeEngine();
  // A sandbox listens at once and answers 503 until its store opens (GET /_sandbox/health says
  // so), so that a CI job waiting for it sees "not yet" rather than nothing.
  let handle: RequestListener = options.stateful ? startingHandler() : statelessHandler();
  function statelessHandler(): RequestListener {
    return createHandler(() => engine, {
      log,
      cors,
      testModeHint: testModeHints(testMode, false),
    });
  }
  const served = await serve((incoming, response) => handle(incoming, response), {
    port,
    host,
    cors,
    limits: options.limits,
  });
  const sandbox = options.stateful
    ? await openSandbox(() =>
        createSandbox({
          operations: engine.operations,
          state: options.state,
          seed: options.seed,
          ...(options.exampleKey !== undefined && { exampleKey: options.exampleKey }),
          ...(options.idleDays !== undefined && { idleDays: options.idleDays }),
          ...(options.maxPartners !== undefined && { maxPartners: options.maxPartners }),
          ...(options.rehearsal === false && { rehearsal: false }),
          ...(options.readinessProfile !== undefined && {
            readinessProfile: options.readinessProfile,
          }),
          ...(options.countReadiness !== undefined && { countReadiness: options.countReadiness }),
          ...(options.deliveryChaos !== undefined && { deliveryChaos: options.deliveryChaos }),
          ...(log !== undefined && { log }),
          ...(options.eventStreamHeartbeatMs !== undefined && {
            eventStream: { heartbeatMs: options.eventStreamHeartbeatMs },
          }),
          version: MOCK_VERSION,
        }),
      ).catch(async (error: unknown) => {
        await served.close();
        throw error;
      })
    : undefined;
  if (sandbox !== undefined) {
    handle = createHandler(() => engine, {
      log,
      cors,
      testModeHint: testModeHints(testMode, true),
      stateful: { sandbox, controlEngine: testMode },
    });
  }

  const unwatch = options.watch
    ? watchFile(spec, async () => {
        try {
          engine = await createPrismEngine(spec, dynamic);
          log?.(`spec reloaded from ${spec}`);
        } catch (error) {
          log?.(`spec not reloaded, keeping the previous one: ${(error as Error).message}`);
        }
      })
    : () => {};

  let stopped: Promise<void> | undefined;
  const running: RunningMock = {
    url: served.url,
    port: served.port,
    stop() {
      if (!stopped) {
        unwatch();
        stopped = served.close().then(() => sandbox?.close());
      }
      return stopped;
    },
  };
  if (sandbox === undefined) return running;
  const apiKey = options.apiKey ?? newApiKey();
  const partnerSandbox: RunningSandbox = {
    ...running,
    ...sandboxControls(served.url, { apiKey }),
    apiKey,
    newPartner: () => sandboxPartner(served.url),
  };
  return partnerSandbox;
}
