// The sandbox without a server: what @org/payments-mock/msw costs a front end's tests.
// - a create through sandboxHandlers (MSW's setupServer intercepting fetch, the sandbox answering
//   in the process) against the same create through startMock({ stateful: true }) over loopback,
//   both with fetch, in interleaved rounds in this process (MSW listens only during its rounds, so
//   the loopback rounds are not intercepted); the figure is the median of the creates' times;
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
import { median, spreadOf } from "./stats.ts";

const BASE_URL = "https://payments.bench.test";
const CONSTANT_URL = "https://constant.bench.test";
const ROUNDS = 30;
const PER_ROUND = 100;
const WARM_UP_ROUNDS = 3;
const FRESH_RUNS = 100;
const TARGETS = { create: 1.5, freshMs: 5 };

async function timedCreate(url: string, apiKey: string): Promise<number> {
  const started = performance.now();
  const response = await partnerRequest(url, apiKey, "POST", "/customers");
  if (response.status !== 200) throw new Error(`POST /customers answered ${response.status}`);
  return performance.now() - started;
}

async function round(url: string, apiKey: string, into: number[] | undefined) {
  for (let index = 0; index < PER_ROUND; index++) {
    const ms = await timedCreate(url, apiKey);
    into?.push(ms);
  }
}

async function measureCreate(): Promise<Row[]> {
  const mock = await startMock({ stateful: true });
  const handlers = sandboxHandlers({ baseUrl: BASE_URL });
  // MSW's own part: the same interception answered at once with a constant, in the same rounds.
  const server = setupServer(
    ...handlers,
    http.all(`${CONSTANT_URL}/*`, () => new Response("{}", { status: 200 })),
  );
  const [overLoopback, throughMsw, constant]: [number[], number[], number[]] = [[], [], []];
  const [loopbackKey, mswKey] = [randomUUID(), randomUUID()];
  let listening = false;
  try {
    for (let index = 0; index < WARM_UP_ROUNDS + ROUNDS; index++) {
      progress(`sandbox without a server: create, round ${index + 1}/${WARM_UP_ROUNDS + ROUNDS}`);
      const measured = index >= WARM_UP_ROUNDS;
      // The one that goes first alternates, so both meet the same machine load.
      const order = index % 2 === 0 ? ["loopback", "msw"] : ["msw", "loopback"];
      for (const which of order) {
        if (which === "loopback") {
          await round(mock.url, loopbackKey, measured ? overLoopback : undefined);
        } else {
          server.listen();
          listening = true;
          await round(BASE_URL, mswKey, measured ? throughMsw : undefined);
          await round(CONSTANT_URL, mswKey, measured ? constant : undefined);
          server.close();
          listening = false;
        }
      }
    }
  } finally {
    if (listening) server.close();
    await handlers.close();
    await mock.stop();
  }
  const value = median(throughMsw);
  const baseline = median(overLoopback);
  const mswAlone: Row = {
    figure: `MSW alone: the same POST through setupServer answered at once with a constant (median of ${ROUNDS * PER_ROUND})`,
    value: median(constant),
    unit: "ms",
    spread: spreadOf(constant),
    baselineLabel: "the same create through startMock({ stateful: true }) over loopback",
    baseline,
    baselineSpread: spreadOf(overLoopback),
  };
  const throughHandlers: Row = {
    figure: `POST /customers through sandboxHandlers (MSW setupServer, fetch intercepted; median of ${ROUNDS * PER_ROUND})`,
    value,
    unit: "ms",
    spread: spreadOf(throughMsw),
    baselineLabel: "the same create through startMock({ stateful: true }) over loopback",
    baseline,
    baselineSpread: spreadOf(overLoopback),
    target: { text: `≤ ×${TARGETS.create}`, met: value / baseline <= TARGETS.create },
  };
  return [throughHandlers, mswAlone];
}

type Handlers = ReturnType<typeof sandboxHandlers>;

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
