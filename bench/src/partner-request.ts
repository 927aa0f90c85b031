// One request to a sandbox as a partner (an API key): the benches' traffic. A POST creates a
// customer, with an idempotency key of its own so that every POST makes one.
import { randomUUID } from "node:crypto";
import { createCustomerRequest } from "./servers/fixtures.ts";

/** Sends `method path` as `key` and reads the whole answer (status and headers stay readable). */
export async function partnerRequest(
  url: string,
  key: string,
  method: "GET" | "POST",
  path: string,
): Promise<Response> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      "X-API-Key": key,
      "content-type": "application/json",
      ...(method === "POST" && { "IDEMPOTENCY-KEY": randomUUID() }),
    },
    ...(method === "POST" && { body: JSON.stringify(createCustomerRequest) }),
  });
  await response.arrayBuffer();
  return response;
}
