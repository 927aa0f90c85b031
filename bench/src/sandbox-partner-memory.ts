// What a partner costs a sandbox in memory, and that the partner limit bounds it. Each
// API key is a partner of its own, with the seed's documents, fee profiles and rates: a shared
// sandbox that any client can hand new keys must not grow without bound. Through the built CLI:
// 10,000 keys each make a customer on the in-memory store, a SQLite file and Postgres, and the
// sandbox process's resident memory (and the file's or the database's size) is read before and
// after; then 50,000 new keys against a sandbox capped at 1,000 partners.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, startPostgres } from "@org/payments-testing";
import pg from "pg";
import { inParallel } from "./in-parallel.ts";
import { partnerRequest } from "./partner-request.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { startCli } from "./sandbox-store.ts";

const PARTNERS = 10_000;
/** The first partners, whose cost per partner is the baseline of the rest's. */
const FIRST = 1_000;
const CONNECTIONS = 10;
/** The in-memory store's documented bound, per partner (packages/docs/guides/sandbox.md). */
const MEMORY_BOUND_BYTES = 48 * 1024;
const LOAD_KEYS = 50_000;
const LOAD_CAP = 1_000;
/** Memory after the load, against memory once the cap was reached: flat. */
const FLAT = 1.1;

async function send(url: string, key: string, method: "GET" | "POST", query = ""): Promise<number> {
  const path = `/customers${method === "GET" ? `?page_size=10${query}` : ""}`;
  return (await partnerRequest(url, key, method, path)).status;
}

/** `count` new keys, each making a customer (so a partner with the seed's data and one customer). */
async function makePartners(url: string, count: number): Promise<void> {
  const statuses = await inParallel(count, CONNECTIONS, () => send(url, randomUUID(), "POST"));
  const failed = statuses.filter((status) => status !== 200).length;
  if (failed > 0) throw new Error(`${failed} of ${count} new keys were refused`);
}

interface Growth {
  /** Bytes per partner over the first FIRST partners, and over the rest. */
  first: number;
  rest: number;
}

/** The growth of `measure` per partner, over the first FIRST partners and the rest of PARTNERS. */
async function growthPerPartner(url: string, measure: () => Promise<number>): Promise<Growth> {
  const start = await measure();
  await makePartners(url, FIRST);
  const afterFirst = await measure();
  await makePartners(url, PARTNERS - FIRST);
  const end = await measure();
  return {
    first: (afterFirst - start) / FIRST,
    rest: (end - afterFirst) / (PARTNERS - FIRST),
  };
}

function growthRow(figure: string, growth: Growth, target?: Row["target"]): Row {
  return {
    figure: `${figure}, per partner over partners ${FIRST + 1}–${PARTNERS.toLocaleString("en-US")} (each a new key's create)`,
    value: Math.round(growth.rest),
    unit: "B",
    baselineLabel: `the same over the first ${FIRST.toLocaleString("en-US")}`,
    baseline: Math.round(growth.first),
    ...(target && { target }),
  };
}

async function memoryStore(): Promise<Row[]> {
  progress(`sandbox partner memory: in memory, ${PARTNERS.toLocaleString("en-US")} partners`);
  const sandbox = await startCli(["--max-partners", "0"]);
  try {
    const growth = await growthPerPartner(sandbox.url, async () => sandbox.rssBytes());
    return [
      growthRow("In-memory store: the sandbox process's resident memory", growth, {
        text: `≤ ${MEMORY_BOUND_BYTES / 1024} KiB`,
        met: growth.rest <= MEMORY_BOUND_BYTES,
      }),
    ];
  } finally {
    await sandbox.stop();
  }
}

async function sqliteStore(dir: string): Promise<Row[]> {
  progress(`sandbox partner memory: SQLite file, ${PARTNERS.toLocaleString("en-US")} partners`);
  const file = join(dir, "partners.db");
  const sandbox = await startCli(["--state", file, "--max-partners", "0"]);
  try {
    const memory: number[] = [];
    const growth = await growthPerPartner(sandbox.url, async () => {
      memory.push(sandbox.rssBytes());
      // The file with its write-ahead log, which holds the newest pages until a checkpoint.
      const wal = `${file}-wal`;
      return statSync(file).size + (statSync(wal, { throwIfNoEntry: false })?.size ?? 0);
    });
    const [start = 0, afterFirst = 0, end = 0] = memory;
    return [
      growthRow("SQLite file: the file's size", growth),
      growthRow("SQLite file: the sandbox process's resident memory", {
        first: (afterFirst - start) / FIRST,
        rest: (end - afterFirst) / (PARTNERS - FIRST),
      }),
    ];
  } finally {
    await sandbox.stop();
  }
}

async function postgresStore(): Promise<Row[]> {
  progress("sandbox partner memory: starting Postgres");
  const postgres = await startPostgres();
  try {
    const url = await createDatabase(postgres.url);
    progress(`sandbox partner memory: Postgres, ${PARTNERS.toLocaleString("en-US")} partners`);
    const sandbox = await startCli(["--state", url, "--max-partners", "0"]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const memory: number[] = [];
      const growth = await growthPerPartner(sandbox.url, async () => {
        memory.push(sandbox.rssBytes());
        const { rows } = await client.query("SELECT pg_database_size(current_database()) AS size");
        return Number(rows[0]?.size ?? 0);
      });
      const [start = 0, afterFirst = 0, end = 0] = memory;
      return [
        growthRow("Postgres: the database's size", growth),
        growthRow("Postgres: the sandbox process's resident memory", {
          first: (afterFirst - start) / FIRST,
          rest: (end - afterFirst) / (PARTNERS - FIRST),
        }),
      ];
    } finally {
      await client.end();
      await sandbox.stop();
    }
  } finally {
    await postgres.stop();
  }
}

/**
 * The sandbox process's resident memory after `LOAD_KEYS - LOAD_CAP` requests that follow the
 * cap's `LOAD_CAP` keys: each from a new key (refused, 503), or, for the baseline, each from one
 * of the keys it took, with a query of its own (so that, as a new key's, each is validated
 * afresh); then whether every key it took still answers.
 */
async function afterTheCap(newKeys: boolean): Promise<{ memory: number; answering: number }> {
  const sandbox = await startCli(["--max-partners", String(LOAD_CAP)]);
  try {
    const known = Array.from({ length: LOAD_CAP }, () => randomUUID());
    const taken = await inParallel(LOAD_CAP, CONNECTIONS, (index) =>
      send(sandbox.url, known[index] ?? "", "POST"),
    );
    if (taken.some((status) => status !== 200)) throw new Error("a key under the cap was refused");
    const statuses = await inParallel(LOAD_KEYS - LOAD_CAP, CONNECTIONS, (index) =>
      newKeys
        ? send(sandbox.url, randomUUID(), "GET")
        : send(sandbox.url, known[index % LOAD_CAP] ?? "", "GET", `&search_term=${index}`),
    );
    const expected = newKeys ? 503 : 200;
    const other = statuses.filter((status) => status !== expected).length;
    if (other > 0) throw new Error(`${other} requests past the cap were not answered ${expected}`);
    const memory = sandbox.rssBytes();
    const answering = (
      await inParallel(LOAD_CAP, CONNECTIONS, (index) =>
        send(sandbox.url, known[index] ?? "", "GET"),
      )
    ).filter((status) => status === 200).length;
    return { memory, answering };
  } finally {
    await sandbox.stop();
  }
}

/**
 * 50,000 keys against an in-memory sandbox capped at 1,000 partners: the first 1,000 are taken,
 * the other 49,000 refused. Memory is flat when they cost the process no more than 49,000
 * requests of the keys it took: V8 grows its heap's room to the garbage of the first tens of
 * thousands of requests of any kind and keeps it (the live heap after a garbage collection stays
 * at about 33 MB, measured in a process run with --expose-gc), which a partner per key would
 * add to, 17 KB each.
 */
async function loadPastTheCap(): Promise<Row[]> {
  const keys = (count: number) => count.toLocaleString("en-US");
  const refused = LOAD_KEYS - LOAD_CAP;
  progress(`sandbox partner memory: ${keys(LOAD_KEYS)} keys, cap ${keys(LOAD_CAP)}`);
  const flood = await afterTheCap(true);
  progress(`sandbox partner memory: ${keys(refused)} requests of the keys under the cap`);
  const baseline = await afterTheCap(false);
  return [
    {
      figure: `${keys(LOAD_KEYS)} keys against --max-partners ${keys(LOAD_CAP)} (in memory): resident memory after the ${keys(refused)} refused`,
      value: flood.memory,
      unit: "B",
      baselineLabel: `the same after ${keys(refused)} requests of the ${keys(LOAD_CAP)} keys it took, each with a query of its own`,
      baseline: baseline.memory,
      target: { text: `≤ ×${FLAT}`, met: flood.memory <= baseline.memory * FLAT },
    },
    {
      figure: `the same: keys it took that still answer (GET /customers 200) after the ${keys(refused)} refused`,
      value: flood.answering,
      unit: "",
      baselineLabel: "keys it took",
      baseline: LOAD_CAP,
      target: { text: "all", met: flood.answering === LOAD_CAP },
    },
  ];
}

export async function measureSandboxPartnerMemory(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-partner-memory-"));
  try {
    return [
      ...(await memoryStore()),
      ...(await sqliteStore(dir)),
      ...(await postgresStore()),
      ...(await loadPastTheCap()),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
