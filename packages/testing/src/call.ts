// A JSON call to a running mock or sandbox, with the tests' API key unless the test sends another.
import { API_KEY, REQUEST_TIMEOUT_MS } from "./spec-requests.ts";

/** A JSON call with the API key (and whatever headers the test adds). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers as loose JSON
): Promise<{ status: number; contentType: string | null; body: any }> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      "X-API-Key": API_KEY,
      ...(options.body !== undefined && { "Content-Type": "application/json; charset=utf-8" }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: text === "" ? undefined : JSON.parse(text),
  };
}

export const newKey = () => ({ "IDEMPOTENCY-KEY": crypto.randomUUID() });

/** Creates a Person customer (with `fields` over the defaults); fails the test on anything but 200. */
export async function createCustomer(
  baseUrl: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const answer = await call(baseUrl, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com", ...fields },
    headers: { ...newKey(), ...headers },
  });
  if (answer.status !== 200) throw new Error(`create customer: ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string; name: string; [field: string]: unknown };
}
