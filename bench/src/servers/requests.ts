// The two requests the mock section sends: a page of customers and a valid create.
import { API_KEY, createCustomerRequest } from "./fixtures.ts";

export type RequestName = "GET /customers" | "POST /customers";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
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

export const requestNames = Object.keys(benchRequests) as RequestName[];
