// The sandbox without a server: what @org/payments-mock/msw costs a front end's tests.
// - a create through sandboxHandlers (MSW's setupServer intercepting fetch, the sandbox answering
//   in the process) against the same create through startMock({ stateful: true }) over loopback,
//   both with fetch and an http:// URL, in interleaved rounds in this process (MSW listens only
//   during its rounds, so the loopback rounds are not intercepted); the figure is the median of
//   the creates' times. In the same rounds, what makes it up: MSW alone (the same POST answered
//   with a constant, as the sandbox answers), the sandbox alone (the same create through
//   handlers.fetch, no MSW), and the same create under an https:// base URL, which MSW answers over an emulated TLS connection;
//   and the same create, with MSW alone beside it, in the two other ways a user can set MSW up in
//   Node: MSW 3 answering at the fetch call (the guide's fetch-only setup) and msw 2's setupServer;
// - a fresh sandbox for a test: sandboxHandlers(…) → its first answer (a new sandbox, its store
//   and seed; the engine is the process's, made once), against a new partner's first answer on a
//   sandbox already made.
import { randomUUID } from "node:crypto";
import type { HttpRequestEventMap, Interceptor } from "@mswjs/interceptors";
import { FetchInterceptor } from "@mswjs/interceptors/fetch/web";
import { startMock } from "@org/payments-mock";
import { sandboxHandlers } from "@org/payments-mock/msw";
import { type HttpHandler, http } from "msw";
import { defineNetwork, InterceptorSource } from "msw/experimental";
import { setupServer } from "msw/node";
import { http as http2 } from "msw-2";
import { setupServer as setupServer2 } from "msw-2/node";
import { partnerRequest } from "./partner-request.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { createCustomerRequest } from "./servers/fixtures.ts";
import { median, spreadOf } from "./stats.ts";

// The loopback baseline is plain HTTP: the figure's URL is too, so that both send the same request.
const BASE_URL = "http://payments.bench.test";
const TLS_BASE_URL = "https://payments.bench.test";
const CONSTANT_URL = "http://constant.bench.test";
const ROUNDS = 30;
const PER_ROUND = 100;
const WARM_UP_ROUNDS = 3;
const FRESH_RUNS = 100;
const TARGETS = { create: 1.5, freshMs: 5 };

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  if (response.status !== 200) throw new Error(`POST /customers answered ${response.status}`);
  return performance.now() - started;
}

type Handlers = ReturnType<typeof sandboxHandlers>;

/** The same create as partnerRequest's, answered by `handlers.fetch` (no MSW, no socket). */
async function createWithoutMsw(handlers: Handlers, apiKey: string): Promise<Response> {
  const response = await handlers.fetch("/customers", {
    method: "POST",
    headers: {
      "X-API-Key": apiKey,
      "content-type": "application/json",
      "IDEMPOTENCY-KEY": randomUUID(),
    },
    body: JSON.stringify(createCustomerRequest),
  });
  await response.arrayBuffer();
  return response;
}

/** What intercepts during a way's rounds, switched on and off around them. */
interface Interception {
  listen(): unknown;
  close(): unknown;
}

interface Way {
  name: string;
  interception?: Interception;
  send: () => Promise<Response>;
  samples: number[];
}

/**
 * MSW's part of a create: the same POST answered with a constant, framed by its length and after a
 * turn of the event loop, as the sandbox's answer is. (Answered at once, it would reach undici
 * before undici has finished writing the request's body, and undici would open a new connection
 * for the next request, which a create through the sandbox does not.)
 */
async function constant(): Promise<Response> {
  await new Promise((resolve) => setImmediate(resolve));
  return new Response("{}", { status: 200, headers: { "content-length": "2" } });
}

/**
 * MSW 3 answering at the fetch call, as the guide's fetch-only setup does: `defineNetwork` with
 * the fetch interceptor that answers the `fetch()` call itself (the one MSW 3 uses in a browser),
 * instead of `setupServer`'s, which lets undici send the request to an emulated socket.
 */
function fetchCallNetwork(handlers: HttpHandler[]): Interception {
  const network = defineNetwork({
    // The browser build's class, typed apart from the Node build's Interceptor: the same shape.
    sources: [
      new InterceptorSource({
        interceptors: [new FetchInterceptor() as unknown as Interceptor<HttpRequestEventMap>],
      }),
    ],
    handlers,
    context: { quiet: true },
  });
  return { listen: () => network.enable(), close: () => network.disable() };
}

async function measureCreate(): Promise<Row[]> {
  const mock = await startMock({ stateful: true });
  // Each way through a sandbox has its own, so that each stores as many creates as the mock.
  const handlers = sandboxHandlers({ baseUrl: BASE_URL });
  const overTls = sandboxHandlers({ baseUrl: TLS_BASE_URL });
  const atFetchCall = sandboxHandlers({ baseUrl: BASE_URL });
  const underMsw2 = sandboxHandlers({ baseUrl: BASE_URL });
  const withoutMsw = sandboxHandlers({ baseUrl: BASE_URL });
  // MSW's own part: the same interception answered with a constant, in the same rounds.
  const server = setupServer(...handlers, ...overTls, http.all(`${CONSTANT_URL}/*`, constant));
  const fetchCall = fetchCallNetwork([...atFetchCall, http.all(`${CONSTANT_URL}/*`, constant)]);
  // MSW 2 (the peer range's oldest major) with its own `http`, as the package's handler is made
  // where msw 2 is the one installed: the same handler, answered by the same sandbox.
  const server2 = setupServer2(
    http2.all(`${BASE_URL}/*`, ({ request }) => underMsw2.fetch(request)),
    http2.all(`${CONSTANT_URL}/*`, constant),
  );
  const [loopbackKey, mswKey] = [randomUUID(), randomUUID()];
  const way = (name: string, send: () => Promise<Response>, interception?: Interception): Way => ({
    name,
    send,
    samples: [],
    ...(interception && { interception }),
  });
  const createAt = (url: string) => () => partnerRequest(url, mswKey, "POST", "/customers");
  const ways = [
    way("loopback", () => partnerRequest(mock.url, loopbackKey, "POST", "/customers")),
    way("msw", createAt(BASE_URL), server),
    way("constant", createAt(CONSTANT_URL), server),
    way("tls", createAt(TLS_BASE_URL), server),
    way("sandbox", () => createWithoutMsw(withoutMsw, mswKey)),
    way("fetch call", createAt(BASE_URL), fetchCall),
    way("fetch call constant", createAt(CONSTANT_URL), fetchCall),
    way("msw 2", createAt(BASE_URL), server2),
    way("msw 2 constant", createAt(CONSTANT_URL), server2),
  ];
  let listening: Interception | undefined;
  try {
    for (let index = 0; index < WARM_UP_ROUNDS + ROUNDS; index++) {
      progress(`sandbox without a server: create, round ${index + 1}/${WARM_UP_ROUNDS + ROUNDS}`);
      const measured = index >= WARM_UP_ROUNDS;
      // The order turns each round, so that every way meets the same machine load.
      const order = ways.map((_, at) => ways[(at + index) % ways.length] as Way);
      for (const { interception, send, samples } of order) {
        interception?.listen();
        listening = interception;
        for (let sent = 0; sent < PER_ROUND; sent++) {
          const ms = await timed(send);
          if (measured) samples.push(ms);
        }
        interception?.close();
        listening = undefined;
      }
    }
  } finally {
    listening?.close();
    for (const closing of [handlers, overTls, atFetchCall, underMsw2, withoutMsw]) {
      await closing.close();
    }
    await mock.stop();
  }
  const samplesOf = (name: string) => ways.find((each) => each.name === name)?.samples ?? [];
  const overLoopback = samplesOf("loopback");
  const baseline = median(overLoopback);
  const againstLoopback = (figure: string, name: string): Row => ({
    figure: `${figure} (median of ${ROUNDS * PER_ROUND})`,
    value: median(samplesOf(name)),
    unit: "ms",
    spread: spreadOf(samplesOf(name)),
    baselineLabel: "the same create through startMock({ stateful: true }) over loopback",
    baseline,
    baselineSpread: spreadOf(overLoopback),
  });
  // The figure, for each way a user can set MSW up in Node.
  const create = (figure: string, name: string): Row => {
    const row = againstLoopback(figure, name);
    return {
      ...row,
      target: { text: `≤ ×${TARGETS.create}`, met: row.value / baseline <= TARGETS.create },
    };
  };
  return [
    create("POST /customers through sandboxHandlers (MSW setupServer, fetch intercepted)", "msw"),
    againstLoopback(
      "MSW alone: the same POST through setupServer answered with a constant (framed, after a turn)",
      "constant",
    ),
    againstLoopback(
      "the sandbox alone: the same create through handlers.fetch, without MSW",
      "sandbox",
    ),
    againstLoopback(
      "the same create through sandboxHandlers under an https:// base URL (MSW emulates TLS)",
      "tls",
    ),
    create(
      "the same create, MSW 3 answering at the fetch call (the guide's fetch-only setup: defineNetwork, @mswjs/interceptors/fetch/web)",
      "fetch call",
    ),
    againstLoopback(
      "MSW alone answering at the fetch call: the same POST answered with the constant",
      "fetch call constant",
    ),
    create("the same create through msw 2.15's setupServer", "msw 2"),
    againstLoopback(
      "MSW 2 alone: the same POST through msw 2.15's setupServer answered with the constant",
      "msw 2 constant",
    ),
  ];
}

/** `make()` → the first answer to a first page sent as `apiKeyOf(made)`, in ms. */
async function firstAnswerMs(make: () => { handlers: Handlers; apiKey: string }) {
  const started = performance.now();
  const { handlers, apiKey } = make();
  const response = await handlers.fetch("/customers?page_size=1", {
    headers: { "x-api-key": apiKey },
  });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET /customers answered ${response.status}`);
  return ms;
}

async function measureFresh(): Promise<Row> {
  // The engine is made once per process, as in a test run: the first sandbox pays for it.
  const first = sandboxHandlers({ baseUrl: BASE_URL });
  await firstAnswerMs(() => ({ handlers: first, apiKey: first.apiKey }));
  const fresh: number[] = [];
  const partners: number[] = [];
  try {
    for (let index = 0; index < FRESH_RUNS; index++) {
      progress(`sandbox without a server: a fresh sandbox, ${index + 1}/${FRESH_RUNS}`);
      let made: Handlers | undefined;
      fresh.push(
        await firstAnswerMs(() => {
          made = sandboxHandlers({ baseUrl: BASE_URL });
          return { handlers: made, apiKey: made.apiKey };
        }),
      );
      await made?.close();
      partners.push(
        await firstAnswerMs(() => ({ handlers: first, apiKey: first.newPartner().apiKey })),
      );
    }
  } finally {
    await first.close();
  }
  const value = median(fresh);
  return {
    figure: `a fresh sandbox for a test: sandboxHandlers(…) → its first answer (median of ${FRESH_RUNS})`,
    value,
    unit: "ms",
    spread: spreadOf(fresh),
    baselineLabel: "a new partner's first answer on a sandbox already made",
    baseline: median(partners),
    baselineSpread: spreadOf(partners),
    target: { text: `≤ ${TARGETS.freshMs} ms`, met: value <= TARGETS.freshMs },
  };
}

export async function measureSandboxWithoutServer(): Promise<Row[]> {
  return [...(await measureCreate()), await measureFresh()];
}
