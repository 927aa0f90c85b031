/**
 * The client's path-style call, by method and path at run time: the tools are data generated
 * from the documents, so the client's per-path types cannot follow them here. The test mode's
 * PUT and DELETE routes, which the API's client does not send, go by the same `fetch` with the same key.
 */
import { PaymentsApiError, type PaymentsClient } from "@org/payments-client";
import { redactText, redactValue } from "./redact.js";
import { undiciFetch } from "./undici-fetch.js";

export interface SendResult {
  data?: unknown;
  error?: PaymentsApiError;
  response: Response;
  requestId: string | undefined;
  replayed: boolean;
}

export type Send = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<SendResult>;

type PathStyle = (path: string, init: Record<string, unknown>) => Promise<SendResult>;

/** How long a PUT or DELETE to the sandbox may take: it answers at once. */
const SANDBOX_TIMEOUT_MS = 30_000;

export function sendWith(client: PaymentsClient, apiKey: string, baseUrl: string): Send {
  const methods = client as unknown as Record<string, PathStyle | undefined>;
  return (method, path, init) => {
    const call = methods[method];
    if (call) return call(path, init);
    return sendByFetch(method, path, init, apiKey, baseUrl);
  };
}

type Init = {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  signal?: AbortSignal;
};

async function sendByFetch(
  method: string,
  template: string,
  init: Init,
  apiKey: string,
  baseUrl: string,
): Promise<SendResult> {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(init.params?.path?.[name] ?? "")),
  );
  const url = new URL(`${baseUrl.replace(/\/$/, "")}${path}`);
  for (const [name, value] of Object.entries(init.params?.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const signals = [AbortSignal.timeout(SANDBOX_TIMEOUT_MS), init.signal].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  const response = await undiciFetch(
    new Request(url, {
      method,
      headers: {
        "X-API-Key": apiKey,
        ...(init.body !== undefined && { "Content-Type": "application/json; charset=utf-8" }),
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      signal: AbortSignal.any(signals),
    }),
  );
  const text = await response.text();
  let data: unknown = text === "" ? undefined : text;
  try {
    if (text !== "") data = JSON.parse(text);
  } catch {
    // Not JSON: the text is the answer.
  }
  const header = response.headers.get("x-request-id") ?? response.headers.get("request-id");
  const requestId = header === null ? undefined : redactText(header, apiKey);
  if (response.ok) return { data, response, requestId, replayed: false };
  const body = redactValue(data, apiKey);
  const operation = `${method} ${template}`;
  const error = new PaymentsApiError({ status: response.status, body, operation, requestId });
  return { error, response, requestId, replayed: false };
}
