// Typed functions for the test mode's routes under /_sandbox/: what startMock({ stateful: true })
// returns beside the URL, and what sandboxControls(url) gives for a sandbox in another process.
// Each feature declares its part (its controls.ts, the client side alone); here they are put
// together, with every type they take and give, in one list the entry (and the mock) re-export.
// This file and the ones it imports compile over the generated types alone: the surface guard
// compiles them over each version of the test-mode document.
import { type ClockControls, clockControls } from "./clock/controls.js";
import { type EventControls, eventControls } from "./events/controls.js";
import { type FaultControls, faultControls } from "./faults/controls.js";
import { type MoneyControls, moneyControls } from "./money/controls.js";
import { type RateLimitControls, rateLimitControls } from "./rate-limit/controls.js";
import { type ReadinessControls, readinessControls } from "./readiness/controls.js";
import { type RequestLogControls, requestLogControls } from "./request-log/controls.js";
import { type SeedControls, seedControls } from "./seed/controls.js";
import { type SimulationControls, simulationControls } from "./simulations/controls.js";
import { controlsClient } from "./test-mode/client.js";

// The types the controls take and give, each its feature's, and the error they throw: with the
// functions below, the whole list the mock publishes as it is (the entry `./controls`).
export type { SandboxClockReading } from "./clock/controls.js";
export type {
  DeliveryAttempt,
  EventFilter,
  SandboxEvent,
  SandboxTopic,
  WebhookOptions,
} from "./events/controls.js";
export type { FaultOptions, SandboxFault } from "./faults/controls.js";
export type { QuoteVerdict, SandboxRates } from "./money/controls.js";
export type { RateLimitOptions } from "./rate-limit/controls.js";
export type { ReadinessReport } from "./readiness/controls.js";
export type { RequestFilter, RequestLogEntry } from "./request-log/controls.js";
export type {
  DepositOptions,
  FiatAddressOptions,
  SandboxCollection,
  SandboxResource,
  SandboxResourceOf,
  SandboxStatus,
} from "./simulations/controls.js";
export { SandboxControlError } from "./test-mode/client.js";

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
  /** The fetch the controls send with (an MSW sandbox's own, a page's). Default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** A new API key, which no other test has: a partner of its own. */
export function newApiKey(): string {
  return `sandbox-test-${crypto.randomUUID()}`;
}

/**
 * A partner of its own, for one test, on the sandbox at `baseUrl` (this process's or another's):
 * a fresh API key and the sandbox's routes bound to it. Its data is made at its first request.
 */
export function sandboxPartner(
  baseUrl: string,
  options: Omit<SandboxControlsOptions, "apiKey"> = {},
): SandboxPartner {
  const apiKey = newApiKey();
  return {
    apiKey,
    url: baseUrl.replace(/\/+$/, ""),
    ...sandboxControls(baseUrl, { ...options, apiKey }),
  };
}

/** The typed sandbox routes of the sandbox at `baseUrl` (this process's or another's). */
export function sandboxControls(
  baseUrl: string,
  { apiKey = "sandbox-key", fetch }: SandboxControlsOptions = {},
): SandboxControls {
  const client = controlsClient(baseUrl, apiKey, fetch);
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
