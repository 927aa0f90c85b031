// Client overhead: the same GET through raw fetch, bare openapi-fetch and @org/payments-client,
// in interleaved rounds against a fixed-JSON node:http server in another process. A fourth
// variant, bare openapi-fetch with a per-request AbortSignal and timer, prices the client's
// default per-attempt timeout on its own: undici charges for following any request signal.
import { createPaymentsClient } from "@org/payments-client";
import createClient from "openapi-fetch";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { API_KEY } from "./servers/fixtures.ts";
import { forkServer } from "./servers/fork-server.ts";
import { median } from "./stats.ts";

// Short rounds, each variant's turn rotating: the machine's load changes by the second, and every
// variant should meet the same load.
const REQUESTS_PER_ROUND = 20;
const WARM_UP_ROUNDS = 100;
const ROUNDS = 1_000;
const TARGET_CLIENT_VS_OPENAPI_FETCH = 1.05;

type Send = () => Promise<unknown>;

function senders(
  url: string,
): Record<"fetch" | "openapiFetch" | "openapiFetchTimeout" | "client", Send> {
  const bare: import("openapi-fetch").Client<import("@org/payments-types").paths> = createClient({
    baseUrl: url,
    headers: { "X-API-Key": API_KEY },
  });
  const client = createPaymentsClient({ apiKey: API_KEY, baseUrl: url });
  return {
    fetch: async () => {
      const response = await fetch(`${url}/customers`, { headers: { "X-API-Key": API_KEY } });
      return checked(response.ok, await response.json());
    },
    openapiFetch: async () => {
      const { data, response } = await bare.GET("/customers");
      return checked(response.ok, data);
    },
    openapiFetchTimeout: async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        const { data, response } = await bare.GET("/customers", { signal: controller.signal });
        return checked(response.ok, data);
      } finally {
        clearTimeout(timer);
      }
    },
    client: async () => {
      const { data, response } = await client.GET("/customers");
      return checked(response.ok, data);
    },
  };
}

/** A failed request would be timed as a cheap one: stop instead. */
function checked(ok: boolean, data: unknown) {
  if (!ok || data === undefined) throw new Error("a benchmark request did not get its JSON page");
  return data;
}

/** Each request's time in microseconds, over one round of sequential requests. */
async function round(send: Send) {
  const times = [];
  for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
    const started = performance.now();
    await send();
    times.push((performance.now() - started) * 1000);
  }
  return times;
}

export async function measureClientOverhead(): Promise<Row[]> {
  const server = await forkServer("plain");
  try {
    const variants = Object.entries(senders(server.url));
    const samples: Record<string, number[]> = Object.fromEntries(
      variants.map(([name]) => [name, []]),
    );
    for (let i = 1; i <= WARM_UP_ROUNDS + ROUNDS; i++) {
      const turn = i % variants.length;
      for (const [name, send] of [...variants.slice(turn), ...variants.slice(0, turn)]) {
        const times = await round(send);
        if (i > WARM_UP_ROUNDS) samples[name]?.push(...times);
      }
      if (i === WARM_UP_ROUNDS) progress(`client overhead: warmed up`);
      else if (i > WARM_UP_ROUNDS && (i - WARM_UP_ROUNDS) % 200 === 0) {
        progress(`client overhead: round ${i - WARM_UP_ROUNDS}/${ROUNDS}`);
      }
    }
    const a = median(samples.fetch ?? []);
    const b = median(samples.openapiFetch ?? []);
    const bTimeout = median(samples.openapiFetchTimeout ?? []);
    const c = median(samples.client ?? []);
    const requests = ROUNDS * REQUESTS_PER_ROUND;
    return [
      {
        figure: `(b) bare openapi-fetch GET, median of ${requests} requests in ${ROUNDS} rounds`,
        value: b,
        unit: "µs",
        baselineLabel: "(a) raw fetch",
        baseline: a,
      },
      {
        figure: `(c) @org/payments-client GET, default options, median of ${requests} requests`,
        value: c,
        unit: "µs",
        baselineLabel: "(b) bare openapi-fetch",
        baseline: b,
        target: {
          text: `c/b ≤ ${TARGET_CLIENT_VS_OPENAPI_FETCH}`,
          met: c / b <= TARGET_CLIENT_VS_OPENAPI_FETCH,
        },
      },
      {
        figure: "(c) @org/payments-client GET, against openapi-fetch with the same 30 s timeout",
        value: c,
        unit: "µs",
        baselineLabel: "(b′) bare openapi-fetch + AbortSignal and timer per request",
        baseline: bTimeout,
      },
      {
        figure: "(c) @org/payments-client GET, against raw fetch",
        value: c,
        unit: "µs",
        baselineLabel: "(a) raw fetch",
        baseline: a,
      },
    ];
  } finally {
    await server.stop();
  }
}
