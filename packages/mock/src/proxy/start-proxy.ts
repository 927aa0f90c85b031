// startProxy(): the validating proxy as an in-process HTTP server, for tests and for the CLI.
import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import {
  bundledSpecPath,
  type ConnectionLimits,
  createPrismEngine,
  type RequestLogger,
  serve,
} from "@org/payments-engine";
import { withoutUserInfo } from "../output/redact.js";
import { createProxyHandler } from "./proxy-handler.js";
import { createUpstream } from "./upstream.js";
import type { Violation } from "./violations.js";

export interface ProxyOptions {
  /** The service to send requests on to: an absolute http(s) URL; its path prefixes every request's. */
  upstream: string | URL;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Path of the OpenAPI document to check against. Default: the spec shipped in the package. */
  spec?: string;
  /** Refuse invalid requests (the mock's 4xx problem) and replace responses that break the spec with a 502 problem. Default false: report only. */
  errors?: boolean;
  /** A file each violation is appended to, as one line of JSON (a `Violation`), as soon as it is found. */
  report?: string;
  /**
   * A file each request the upstream answered is appended to, as one line of JSON
   * (`"type": "exchange"`: its operation and status), which `payments-mock readiness --from`
   * reads. It must not be the report's file: the report holds violations only.
   */
  traffic?: string;
  /** Called with each violation as soon as it is found. */
  onViolation?: (violation: Violation) => void;
  /** How long the upstream may take to answer (and to send the next part of a body), in ms. Default 30 000. */
  upstreamTimeoutMs?: number;
  /** Called with one line per request (method, target, status and the violations found). */
  log?: RequestLogger;
  /** Answer CORS preflights and put CORS headers on answers that have none. Default true. */
  cors?: boolean;
  /** Connection time limits in ms, as for the mock; see the README's "Limits". */
  limits?: Partial<ConnectionLimits>;
}

/** Violations found so far, per `operationId` (`(no operation)` for requests that match none). */
export interface ViolationSummary {
  total: number;
  byOperation: Record<string, number>;
}

export interface RunningProxy {
  /** Base URL, such as `http://127.0.0.1:4010`; point your client at it instead of the upstream. */
  url: string;
  port: number;
  /** The violations found so far. */
  summary(): ViolationSummary;
  /** Stops listening, closes every open connection, the report and the traffic file. Safe to call more than once. */
  stop(): Promise<void>;
}

const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Starts the proxy and resolves once it answers requests. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { port = 0, host = "127.0.0.1", spec = bundledSpecPath(), cors = true } = options;
  const upstreamUrl = upstreamUrlOf(options.upstream);
  const asked = options.upstreamTimeoutMs ?? 30_000;
  if (!(Number.isFinite(asked) && asked > 0)) {
    throw new Error(`upstreamTimeoutMs must be a positive number of ms, got ${asked}`);
  }
  // A timer holds at most 2^31 - 1 ms (24.8 days) and takes anything longer as 1 ms: a longer
  // limit is as good as that one.
  const timeoutMs = Math.min(asked, LONGEST_TIMER_MS);
  if (
    options.report !== undefined &&
    options.traffic !== undefined &&
    path.resolve(options.report) === path.resolve(options.traffic)
  ) {
    throw new Error(
      `the traffic file must not be the report's file (${options.traffic}): the report holds violations only`,
    );
  }
  const engine = await createPrismEngine(spec, false);
  let report = appendTo(options.report, "report");
  let traffic: number | undefined;
  try {
    traffic = appendTo(options.traffic, "traffic");
    // The same file under another name (a link) is the same file.
    if (report !== undefined && traffic !== undefined && sameFile(report, traffic)) {
      throw new Error(
        `the traffic file must not be the report's file (${options.traffic} is ${options.report}): the report holds violations only`,
      );
    }
  } catch (error) {
    if (report !== undefined) closeSync(report);
    if (traffic !== undefined) closeSync(traffic);
    throw error;
  }
  const byOperation = new Map<string, number>();
  const upstream = createUpstream(upstreamUrl, timeoutMs);
  const handler = createProxyHandler({
    engine,
    upstream,
    errors: options.errors ?? false,
    cors,
    log: options.log,
    report(violations) {
      for (const violation of violations) {
        const operation = violation.operation ?? "(no operation)";
        byOperation.set(operation, (byOperation.get(operation) ?? 0) + 1);
        if (report !== undefined) writeSync(report, `${jsonLine(violation)}\n`);
        options.onViolation?.(violation);
      }
    },
    traffic(line) {
      if (traffic !== undefined) writeSync(traffic, `${JSON.stringify(line)}\n`);
    },
  });
  const served = await serve(
    (incoming, response) => {
      handler(incoming, response).catch((error: unknown) => {
        options.log?.(`proxy failure: ${(error as Error).message}`);
        response.destroy();
      });
    },
    { port, host, cors, limits: options.limits },
  ).catch((error: unknown) => {
    close();
    throw error;
  });
  if (isItself(upstreamUrl, host, served.port)) {
    await served.close();
    close();
    throw new Error(
      `the upstream ${upstreamUrl.origin} is the proxy itself (it listens on ${served.url}): each request would come back to it, hundreds of times over; give the service's URL`,
    );
  }

  // Requests still in flight when the proxy stops are still counted and logged, not written to
  // the closed files.
  function close() {
    upstream.agent.destroy();
    if (report !== undefined) closeSync(report);
    if (traffic !== undefined) closeSync(traffic);
    report = undefined;
    traffic = undefined;
  }

  let stopped: Promise<void> | undefined;
  return {
    url: served.url,
    port: served.port,
    summary: () => ({
      total: [...byOperation.values()].reduce((sum, count) => sum + count, 0),
      byOperation: Object.fromEntries(byOperation),
    }),
    stop() {
      stopped ??= served.close().then(close);
      return stopped;
    },
  };
}

/**
 * A file descriptor that appends to `file`, made if missing; none without a file. A FIFO that
 * nothing reads is refused: opening it would hold the whole process until something did.
 */
function appendTo(file: string | undefined, what: string): number | undefined {
  if (file === undefined) return undefined;
  if (statSync(file, { throwIfNoEntry: false })?.isFIFO()) {
    let probe: number | undefined;
    try {
      probe = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      throw new Error(
        `the ${what} file ${file} is a FIFO (named pipe) that nothing reads: give a regular file`,
      );
    } finally {
      if (probe !== undefined) closeSync(probe);
    }
  }
  return openSync(file, "a");
}

/**
 * A value as one line of JSON for every reader: JSON.stringify leaves U+2028, U+2029 and U+0085
 * (NEL) in strings as they are, and a reader such as Python's str.splitlines() ends a line at
 * each. Escaped, they read back as the same characters.
 */
function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u2028\u2029\u0085]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);
const ANY_ADDRESS = new Set(["0.0.0.0", "::"]);

/**
 * Whether the upstream is the proxy's own address: its port, on the host it listens on (or on the
 * loopback, when it listens there or on every interface). Not on another machine's name for it.
 */
function isItself(upstream: URL, host: string, port: number): boolean {
  if (upstream.protocol !== "http:" || Number(upstream.port || 80) !== port) return false;
  const name = upstream.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const listening = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (name === listening) return true;
  if (ANY_ADDRESS.has(listening)) return LOOPBACK.has(name) || ANY_ADDRESS.has(name);
  return LOOPBACK.has(listening) && (name === "localhost" || ANY_ADDRESS.has(name));
}

function sameFile(one: number, other: number): boolean {
  const [a, b] = [fstatSync(one), fstatSync(other)];
  return a.dev === b.dev && a.ino === b.ino;
}

function upstreamUrlOf(upstream: string | URL): URL {
  const url = URL.canParse(String(upstream)) ? new URL(String(upstream)) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new Error(
      `upstream must be an absolute http(s) URL such as https://api.example.com, got "${withoutUserInfo(String(upstream))}"`,
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new Error(
      `upstream must not have a query or a fragment, got "${withoutUserInfo(String(upstream))}"`,
    );
  }
  return url;
}
