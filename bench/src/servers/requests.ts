// The two requests the mock section sends: a page of customers and a valid create.
import { randomUUID } from "node:crypto";
import type autocannon from "autocannon";
import { API_KEY, createCustomerRequest } from "./fixtures.ts";

export type RequestName = "GET /customers" | "POST /customers";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Sent as recorded, the same bytes every time (a real create, recorded once): the load
   * generator does no work per request. Without it, a POST gets a fresh IDEMPOTENCY-KEY each time.
   */
  asRecorded?: boolean;
}

export const benchRequests: Record<RequestName, BenchRequest> = {
  "GET /customers": { method: "GET", path: "/customers", headers: { "X-API-Key": API_KEY } },
  "POST /customers": {
    method: "POST",
    path: "/customers",
    headers: {
      "X-API-Key": API_KEY,
      "IDEMPOTENCY-KEY": "9c2e4a6b-1d3f-4b5a-8c7e-0f2a4c6e8b1d",
      "content-type": "application/json",
    },
    body: JSON.stringify(createCustomerRequest),
  },
};

/**
 * autocannon's options for sending `sent` to any of the servers. A POST gets a fresh
 * IDEMPOTENCY-KEY per request (as long as the fixed one), so that each one creates in the sandbox;
 * every server gets the same, so that making the keys costs the load generator the same for each.
 */
export function loadOptions(sent: BenchRequest): Partial<autocannon.Options> {
  const request = { method: sent.method, headers: sent.headers, body: sent.body };
  if (sent.method !== "POST" || sent.asRecorded) return request;
  return {
    requests: [
      {
        ...request,
        setupRequest: (next: autocannon.Request) => ({
          ...next,
          headers: withFreshKey(next.headers ?? {}),
        }),
      },
    ],
  };
}

/** The headers with a new IDEMPOTENCY-KEY in the place of the fixed one. */
export function withFreshKey<Headers extends object>(headers: Headers): Headers {
  return { ...headers, "IDEMPOTENCY-KEY": randomUUID() };
}
