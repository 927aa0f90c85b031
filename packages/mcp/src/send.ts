/**
 * The client's path-style call, by method and path at run time: the tools are data generated
 * from the documents, so the client's per-path types cannot follow them here.
 */
import type { PaymentsApiError, PaymentsClient } from "@org/payments-client";

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

export function sendWith(client: PaymentsClient): Send {
  const methods = client as unknown as Record<string, PathStyle | undefined>;
  return (method, path, init) => {
    const call = methods[method];
    if (!call) throw new Error(`the client has no ${method} method`);
    return call(path, init);
  };
}
