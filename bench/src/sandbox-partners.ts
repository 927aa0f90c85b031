// The sandbox with many partners: each API key is a partner of its own, so a
// store shared by a CI that makes a key per test holds thousands of them. A request of one key
// should cost about the same with 10,000 partners stored as with one, and a new key's first
// answer (its partner made at once, with the seed's documents and fee profiles) little more than
// a warm key's. On a SQLite file and on Postgres, through the built CLI.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, startPostgres } from "@org/payments-testing";
import { inParallel } from "./in-parallel.ts";
import { partnerRequest } from "./partner-request.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { startCli } from "./sandbox-store.ts";
import { API_KEY } from "./servers/fixtures.ts";
import { median } from "./stats.ts";

const PARTNERS = 10_000;
/** Requests at a time, while partners are made and while requests are timed. */
const CONNECTIONS = 10;
const MEASURED = 300;
/** New keys whose first answer is timed, one at a time. */
const NEW_KEYS = 200;
const TARGETS = { manyPartners: 1.5, firstAnswer: 3, firstAnswerExtraMs: 5 };

type Method = "GET" | "POST";

async function send(url: string, key: string, method: Method, path: string): Promise<number> {
  const started = performance.now();
  const response = await partnerRequest(url, key, method, path);
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return performance.now() - started;
}

interface Requests {
  create: number;
  list: number;
}

/** The bench key's p50 of a create and of its first page of customers. */
async function warmKeyP50(url: string): Promise<Requests> {
  const create = await inParallel(MEASURED, CONNECTIONS, () =>
    send(url, API_KEY, "POST", "/customers"),
  );
  const list = await inParallel(MEASURED, CONNECTIONS, () =>
    send(url, API_KEY, "GET", "/customers?page_size=10"),
  );
  return { create: median(create), list: median(list) };
}

interface StoreFigures {
  one: Requests;
  many: Requests;
  /** p50 of a new key's first answer (GET /customers), and of a warm key's same request. */
  firstAnswer: number;
  warmAnswer: number;
}

async function measureStore(label: string, state: string): Promise<StoreFigures> {
  // Every key a partner, however many: the limit's own figures are in sandbox-partner-memory.ts.
  const sandbox = await startCli(["--state", state, "--max-partners", "0"]);
  try {
    progress(`sandbox partners: ${label}, one partner`);
    await inParallel(MEASURED, CONNECTIONS, () => send(sandbox.url, API_KEY, "POST", "/customers"));
    const one = await warmKeyP50(sandbox.url);
    progress(`sandbox partners: ${label}, making ${PARTNERS.toLocaleString("en-US")} partners`);
    await inParallel(PARTNERS, CONNECTIONS, () =>
      send(sandbox.url, randomUUID(), "POST", "/customers"),
    );
    progress(`sandbox partners: ${label}, ${PARTNERS.toLocaleString("en-US")} partners`);
    const many = await warmKeyP50(sandbox.url);
    const first: number[] = [];
    const warm: number[] = [];
    for (let index = 0; index < NEW_KEYS; index++) {
      const key = randomUUID();
      first.push(await send(sandbox.url, key, "GET", "/customers?page_size=10"));
      warm.push(await send(sandbox.url, key, "GET", "/customers?page_size=10"));
    }
    return { one, many, firstAnswer: median(first), warmAnswer: median(warm) };
  } finally {
    await sandbox.stop();
  }
}

function rows(store: string, figures: StoreFigures): Row[] {
  const partners = `${PARTNERS.toLocaleString("en-US")} partners stored`;
  const of = `${CONNECTIONS} connections, ${MEASURED} requests`;
  const notGrowing = (value: number, baseline: number) => ({
    text: `≤ ×${TARGETS.manyPartners}`,
    met: value / baseline <= TARGETS.manyPartners,
  });
  const firstLimit = TARGETS.firstAnswer * figures.warmAnswer + TARGETS.firstAnswerExtraMs;
  return [
    {
      figure: `${store}: POST /customers p50 of one key with ${partners} (${of})`,
      value: figures.many.create,
      unit: "ms",
      baselineLabel: "the same with its partner the only one",
      baseline: figures.one.create,
      target: notGrowing(figures.many.create, figures.one.create),
    },
    {
      figure: `${store}: GET /customers (first page) p50 of one key with ${partners} (${of})`,
      value: figures.many.list,
      unit: "ms",
      baselineLabel: "the same with its partner the only one",
      baseline: figures.one.list,
      target: notGrowing(figures.many.list, figures.one.list),
    },
    {
      figure: `${store}: a new key's first answer (GET /customers, its partner made), p50 of ${NEW_KEYS} keys one at a time`,
      value: figures.firstAnswer,
      unit: "ms",
      baselineLabel: "the same key's second answer",
      baseline: figures.warmAnswer,
      target: {
        text: `≤ ×${TARGETS.firstAnswer} + ${TARGETS.firstAnswerExtraMs} ms`,
        met: figures.firstAnswer <= firstLimit,
      },
    },
  ];
}

export async function measureSandboxPartners(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-partners-"));
  try {
    const sqlite = await measureStore("SQLite file", join(dir, "partners.db"));
    progress("sandbox partners: starting Postgres");
    const postgres = await startPostgres();
    let onPostgres: StoreFigures;
    try {
      onPostgres = await measureStore("Postgres", await createDatabase(postgres.url));
    } finally {
      await postgres.stop();
    }
    return [...rows("SQLite file", sqlite), ...rows("Postgres, one process", onPostgres)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
