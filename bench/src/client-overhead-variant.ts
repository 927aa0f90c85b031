// One variant of the client-overhead benchmark, in a process of its own as in a partner's app:
// variants sharing a process would share V8's inline caches in openapi-fetch and undici, and one
// variant's garbage (b′'s signal finalizers) would be collected during another's round. Sent a
// number of requests, it makes them one after another and answers with each one's time in µs.
import { createPaymentsClient } from "@org/payments-client";
import type { paths } from "@org/payments-types";
import createClient from "openapi-fetch";
import { API_KEY } from "./servers/fixtures.ts";

export const VARIANTS = ["fetch", "openapiFetch", "openapiFetchTimeout", "client"] as const;
export type Variant = (typeof VARIANTS)[number];

type Send = () => Promise<unknown>;

function sender(variant: Variant, url: string): Send {
  switch (variant) {
    case "fetch":
      return async () => {
        const response = await fetch(`${url}/customers`, { headers: { "X-API-Key": API_KEY } });
        return checked(response.ok, await response.json());
      };
    case "openapiFetch": {
      const bare = createClient<paths>({ baseUrl: url, headers: { "X-API-Key": API_KEY } });
      return async () => {
        const { data, response } = await bare.GET("/customers");
        return checked(response.ok, data);
      };
    }
    case "openapiFetchTimeout": {
      const bare = createClient<paths>({ baseUrl: url, headers: { "X-API-Key": API_KEY } });
      return async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 30_000);
        try {
          const { data, response } = await bare.GET("/customers", { signal: controller.signal });
          return checked(response.ok, data);
        } finally {
          clearTimeout(timer);
        }
      };
    }
    case "client": {
      const client = createPaymentsClient({ apiKey: API_KEY, baseUrl: url });
      return async () => {
        const { data, response } = await client.GET("/customers");
        return checked(response.ok, data);
      };
    }
  }
}

/** A failed request would be timed as a cheap one: stop instead. */
function checked(ok: boolean, data: unknown) {
  if (!ok || data === undefined) throw new Error("a benchmark request did not get its JSON page");
  return data;
}

async function times(send: Send, requests: number) {
  const result = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    await send();
    result.push((performance.now() - started) * 1000);
  }
  return result;
}

if (process.send) {
  const [variant, url] = process.argv.slice(2) as [Variant, string];
  const send = sender(variant, url);
  process.on("message", async (requests: number) => process.send?.(await times(send, requests)));
  process.send("ready");
}
