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
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { startCli } from "./sandbox-store.ts";
import { createCustomerRequest } from "./servers/fixtures.ts";

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

async function send(url: string, key: string, method: "GET" | "POST"): Promise<number> {
  const response = await fetch(`${url}/customers${method === "GET" ? "?page_size=10" : ""}`, {
    method,
    headers: {
      "X-API-Key": key,
      "content-type": "application/json",
      ...(method === "POST" && { "IDEMPOTENCY-KEY": randomUUID() }),
    },
    ...(method === "POST" && { body: JSON.stringify(createCustomerRequest) }),
  });
  await response.arrayBuffer();
  return response.status;
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
 * 50,000 new keys against an in-memory sandbox capped at 1,000 partners: the first 1,000 are
 * taken, the rest refused; memory stays where it was once the cap was reached, and every key it
 * took still answers.
 */
async function loadPastTheCap(): Promise<Row[]> {
  progress(`sandbox partner memory: ${LOAD_KEYS.toLocaleString("en-US")} keys, cap ${LOAD_CAP}`);
  const sandbox = await startCli(["--max-partners", String(LOAD_CAP)]);
  try {
    const known = Array.from({ length: LOAD_CAP }, () => randomUUID());
    const taken = await inParallel(LOAD_CAP, CONNECTIONS, (index) =>
      send(sandbox.url, known[index] ?? "", "POST"),
    );
    if (taken.some((status) => status !== 200)) throw new Error("a key under the cap was refused");
    const atCap = sandbox.rssBytes();
    const refused = await inParallel(LOAD_KEYS - LOAD_CAP, CONNECTIONS, () =>
      send(sandbox.url, randomUUID(), "GET"),
    );
    const notRefused = refused.filter((status) => status !== 503).length;
    if (notRefused > 0) throw new Error(`${notRefused} keys past the cap were not refused (503)`);
    const after = sandbox.rssBytes();
    const answering = (
      await inParallel(LOAD_CAP, CONNECTIONS, (index) =>
        send(sandbox.url, known[index] ?? "", "GET"),
      )
    ).filter((status) => status === 200).length;
    return [
      {
        figure: `${LOAD_KEYS.toLocaleString("en-US")} keys against --max-partners ${LOAD_CAP} (in memory): resident memory after them all`,
        value: after,
        unit: "B",
        baselineLabel: `once its first ${LOAD_CAP.toLocaleString("en-US")} keys were partners`,
        baseline: atCap,
        target: { text: `≤ ×${FLAT}`, met: after <= atCap * FLAT },
      },
      {
        figure: `the same: keys it took that still answer (GET /customers 200) after the ${(LOAD_KEYS - LOAD_CAP).toLocaleString("en-US")} refused`,
        value: answering,
        unit: "",
        baselineLabel: "keys it took",
        baseline: LOAD_CAP,
        target: { text: "all", met: answering === LOAD_CAP },
      },
    ];
  } finally {
    await sandbox.stop();
  }
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
