// Typed functions for the test mode's routes under /_sandbox/: what startMock({ stateful: true })
// returns beside the URL, and what sandboxControls(url) gives for a sandbox in another process.
// Each feature declares its part (its controls.ts); here they are put together.
import { randomUUID } from "node:crypto";
import { type ClockControls, clockControls } from "./clock/index.js";
import { type EventControls, eventControls } from "./events/index.js";
import { type FaultControls, faultControls } from "./faults/index.js";
import { type MoneyControls, moneyControls } from "./money/index.js";
import { type RateLimitControls, rateLimitControls } from "./rate-limit/index.js";
import { type ReadinessControls, readinessControls } from "./readiness/index.js";
import { type RequestLogControls, requestLogControls } from "./request-log/index.js";
import { type SeedControls, seedControls } from "./seed/index.js";
import { type SimulationControls, simulationControls } from "./simulations/index.js";
import { controlsClient } from "./test-mode/index.js";

export interface SandboxControls
  extends ClockControls,
    SimulationControls,
    EventControls,
    MoneyControls,
    FaultControls,
    RateLimitControls,
    RequestLogControls,
    SeedControls,
    ReadinessControls {}

/** A partner of its own, for one test: a fresh API key, and the sandbox's routes under it. */
export interface SandboxPartner extends SandboxControls {
  /** The partner's API key: send it as X-API-Key (the client's `apiKey`). */
  apiKey: string;
  /** The sandbox's base URL. */
  url: string;
}

export interface SandboxControlsOptions {
  /**
   * Sent as X-API-Key: the partner whose clock, simulations and event log these are (each key is
   * a partner of its own). Default "sandbox-key", the key of the example data.
   */
  apiKey?: string;
}

/** A new API key, which no other test has: a partner of its own. */
export function newApiKey(): string {
  return `sandbox-test-${randomUUID()}`;
}

/**
 * A partner of its own, for one test, on the sandbox at `baseUrl` (this process's or another's):
 * a fresh API key and the sandbox's routes bound to it. Its data is made at its first request.
 */
export function sandboxPartner(baseUrl: string): SandboxPartner {
  const apiKey = newApiKey();
  return { apiKey, url: baseUrl.replace(/\/+$/, ""), ...sandboxControls(baseUrl, { apiKey }) };
}

/** The typed sandbox routes of the sandbox at `baseUrl` (this process's or another's). */
export function sandboxControls(
  baseUrl: string,
  { apiKey = "sandbox-key" }: SandboxControlsOptions = {},
): SandboxControls {
  const client = controlsClient(baseUrl, apiKey);
  return {
    ...clockControls(client),
    ...simulationControls(client),
    ...eventControls(client),
    ...moneyControls(client),
    ...faultControls(client),
    ...rateLimitControls(client),
    ...requestLogControls(client),
    ...seedControls(client),
    ...readinessControls(client),
  };
}

// The types the controls take and give, each its feature's, and the error they throw: with the
// functions above, the whole list the mock publishes as it is (the entry `./controls`).
export type { SandboxClockReading } from "./clock/index.js";
export type {
  DeliveryAttempt,
  EventFilter,
  SandboxEvent,
  SandboxTopic,
  WebhookOptions,
} from "./events/index.js";
export type { FaultOptions, SandboxFault } from "./faults/index.js";
export type { QuoteVerdict, SandboxRates } from "./money/index.js";
export type { RateLimitOptions } from "./rate-limit/index.js";
export type { ReadinessReport } from "./readiness/index.js";
export type { RequestFilter, RequestLogEntry } from "./request-log/index.js";
export type {
  DepositOptions,
  FiatAddressOptions,
  SandboxCollection,
  SandboxResource,
  SandboxResourceOf,
  SandboxStatus,
} from "./simulations/index.js";
export { SandboxControlError } from "./test-mode/index.js";
