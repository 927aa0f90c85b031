// The sandbox without a server: what @org/payments-mock/msw costs a front end's tests.
// - a create through sandboxHandlers (MSW's setupServer intercepting fetch, the sandbox answering
//   in the process) against the same create through startMock({ stateful: true }) over loopback,
//   both with fetch and an http:// URL, in interleaved rounds in this process (MSW listens only
//   during its rounds, so the loopback rounds are not intercepted); the figure is the median of
//   the creates' times. In the same rounds, what makes it up: MSW alone (the same POST answered at
//   once with a constant), the sandbox alone (the same create through handlers.fetch, no MSW), and
//   the same create under an https:// base URL, which MSW answers over an emulated TLS connection;
// - a fresh sandbox for a test: sandboxHandlers(…) → its first answer (a new sandbox, its store
//   and seed; the engine is the process's, made once), against a new partner's first answer on a
//   sandbox already made.
import { randomUUID } from "node:crypto";
import { startMock } from "@org/payments-mock";
import { sandboxHandlers } from "@org/payments-mock/msw";
import { http } from "msw";
import { setupServer } from "msw/node";
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

interface Way {
  name: string;
  /** Whether MSW intercepts during its rounds. */
  msw: boolean;
  send: () => Promise<Response>;
  samples: number[];
}

async function measureCreate(): Promise<Row[]> {
  const mock = await startMock({ stateful: true });
  const handlers = sandboxHandlers({ baseUrl: BASE_URL });
  const overTls = sandboxHandlers({ baseUrl: TLS_BASE_URL });
  // Its own sandbox, not intercepted, so that each sandbox stores as many creates as the mock.
  const withoutMsw = sandboxHandlers({ baseUrl: BASE_URL });
  // MSW's own part: the same interception answered at once with a constant, in the same rounds.
  const server = setupServer(
    ...handlers,
    ...overTls,
    http.all(`${CONSTANT_URL}/*`, () => new Response("{}", { status: 200 })),
  );
  const [loopbackKey, mswKey] = [randomUUID(), randomUUID()];
  const way = (name: string, msw: boolean, send: () => Promise<Response>): Way => ({
    name,
    msw,
    send,
    samples: [],
  });
  const ways = [
    way("loopback", false, () => partnerRequest(mock.url, loopbackKey, "POST", "/customers")),
    way("msw", true, () => partnerRequest(BASE_URL, mswKey, "POST", "/customers")),
    way("constant", true, () => partnerRequest(CONSTANT_URL, mswKey, "POST", "/customers")),
    way("tls", true, () => partnerRequest(TLS_BASE_URL, mswKey, "POST", "/customers")),
    way("sandbox", false, () => createWithoutMsw(withoutMsw, mswKey)),
  ];
  let listening = false;
  try {
    for (let index = 0; index < WARM_UP_ROUNDS + ROUNDS; index++) {
      progress(`sandbox without a server: create, round ${index + 1}/${WARM_UP_ROUNDS + ROUNDS}`);
      const measured = index >= WARM_UP_ROUNDS;
      // The order turns each round, so that every way meets the same machine load.
      const order = ways.map((_, at) => ways[(at + index) % ways.length] as Way);
      for (const { msw, send, samples } of order) {
        if (msw) {
          server.listen();
          listening = true;
        }
        for (let sent = 0; sent < PER_ROUND; sent++) {
          const ms = await timed(send);
          if (measured) samples.push(ms);
        }
        if (msw) {
          server.close();
          listening = false;
        }
      }
    }
  } finally {
    if (listening) server.close();
    await handlers.close();
    await overTls.close();
    await withoutMsw.close();
    await mock.stop();
  }
  const [overLoopback, throughMsw, constant, throughTls, sandboxAlone] = ways.map(
    ({ samples }) => samples,
  ) as [number[], number[], number[], number[], number[]];
  const baseline = median(overLoopback);
  const againstLoopback = (figure: string, samples: number[]): Row => ({
    figure: `${figure} (median of ${ROUNDS * PER_ROUND})`,
    value: median(samples),
    unit: "ms",
    spread: spreadOf(samples),
    baselineLabel: "the same create through startMock({ stateful: true }) over loopback",
    baseline,
    baselineSpread: spreadOf(overLoopback),
  });
  const value = median(throughMsw);
  return [
    {
      ...againstLoopback(
        "POST /customers through sandboxHandlers (MSW setupServer, fetch intercepted)",
        throughMsw,
      ),
      target: { text: `≤ ×${TARGETS.create}`, met: value / baseline <= TARGETS.create },
    },
    againstLoopback(
      "MSW alone: the same POST through setupServer answered at once with a constant",
      constant,
    ),
    againstLoopback(
      "the sandbox alone: the same create through handlers.fetch, without MSW",
      sandboxAlone,
    ),
    againstLoopback(
      "the same create through sandboxHandlers under an https:// base URL (MSW emulates TLS)",
      throughTls,
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
