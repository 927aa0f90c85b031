// Advancing the sandbox clock over a day of scheduled work (issue 35, point 9): N customers, each
// with an identification under review (3 timed steps, then its customer's activation), and N
// simulated deposits, each a transaction that settles in 4 timed steps. The time of one advance by
// a day, for N = 1,000 against 4 × its time for N = 250 (it grows with the work), and for N = 250
// with 10,000 more customers stored against none (it does not grow with the data). The sandbox
// runs in this process, so the ratios compare its CPU time during the advance, which the load of
// other processes on the machine moves far less than wall time; the three sizes alternate.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMock } from "@org/payments-mock";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { seedCustomers } from "./sandbox-store.ts";
import { API_KEY } from "./servers/fixtures.ts";
import { median, spreadOf } from "./stats.ts";

const SMALL = 250;
const LARGE = 1_000;
const STORED = 10_000;
const REPEATS = 3;
/** Requests in flight while the work is set up. */
const PARALLEL = 10;
/** Timed jobs of a customer's identification (Processed, PendingReview, Approved) and a transaction's four. */
const JOBS_PER_UNIT = 3 + 4;
const DAY_SECONDS = 24 * 60 * 60;

type Store = "memory" | "SQLite file";

interface Took {
  wallMs: number;
  cpuMs: number;
}

/** The time one advance by a day over the work of `units` customers and transactions took. */
async function advanceOverWork(store: Store, units: number, stored: number): Promise<Took> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-clock-"));
  // No documents to sign and no webhook: the work is the lifecycles' timed steps alone.
  const sandbox = await startMock({
    stateful: true,
    seed: { customers: seedCustomers(stored) },
    ...(store === "SQLite file" && { state: join(dir, "sandbox.db") }),
  });
  try {
    const post = async (path: string, body: object) => {
      const response = await fetch(`${sandbox.url}${path}`, {
        method: "POST",
        headers: {
          "X-API-Key": API_KEY,
          "IDEMPOTENCY-KEY": crypto.randomUUID(),
          "Content-Type": "application/json",
        },
        body: JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string };
    };
    const customer = () => post("/customers", { customer_type: "Person", email: "b@example.com" });
    const funded = await customer();
    await post(`/customers/${funded.id}/identifications`, { type: "Direct" });
    await sandbox.advanceClock({ seconds: DAY_SECONDS });
    const autoramp = await post("/autoramps", {
      customer_id: funded.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    });
    await inBatches(units, async () => {
      const { id } = await customer();
      await post(`/customers/${id}/identifications`, { type: "Direct" });
      await sandbox.deposit(autoramp.id, { amount: "100.00" });
    });
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { ran } = await sandbox.advanceClock({ seconds: DAY_SECONDS });
    const used = process.cpuUsage(cpu);
    const took = { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
    if (ran !== units * JOBS_PER_UNIT) {
      throw new Error(`the advance ran ${ran} jobs, not the ${units * JOBS_PER_UNIT} scheduled`);
    }
    return took;
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `work` `count` times, PARALLEL at once. */
async function inBatches(count: number, work: () => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await work();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

const SIZES = {
  small: { units: SMALL, stored: 0 },
  large: { units: LARGE, stored: 0 },
  crowded: { units: SMALL, stored: STORED },
};
type Size = keyof typeof SIZES;

/** REPEATS rounds, each advancing a sandbox of each size in turn; the median and range of each. */
async function rounds(store: Store) {
  const taken: Record<Size, Took[]> = { small: [], large: [], crowded: [] };
  for (let round = 0; round < REPEATS; round++) {
    for (const [size, { units, stored }] of Object.entries(SIZES) as [Size, typeof SIZES.small][]) {
      progress(
        `sandbox clock: ${store}, ${units} customers and transactions, ${stored} stored (round ${round + 1}/${REPEATS})`,
      );
      taken[size].push(await advanceOverWork(store, units, stored));
    }
  }
  const of = (size: Size, figure: keyof Took) => {
    const samples = taken[size].map((took) => took[figure]);
    return { value: median(samples), spread: spreadOf(samples) };
  };
  return of;
}

export async function measureSandboxClock(): Promise<Row[]> {
  const rows: Row[] = [];
  const jobs = (units: number) => (units * JOBS_PER_UNIT).toLocaleString("en-US");
  const work = (units: number) =>
    `${units.toLocaleString("en-US")} customers under review and ${units.toLocaleString("en-US")} transactions settling (${jobs(units)} timed steps and their cascades)`;
  for (const store of ["memory", "SQLite file"] as const) {
    const of = await rounds(store);
    const [small, large, crowded] = [
      of("small", "cpuMs"),
      of("large", "cpuMs"),
      of("crowded", "cpuMs"),
    ];
    rows.push(
      {
        figure: `${store} sandbox: POST /_sandbox/clock/advance by a day over ${work(LARGE)}: wall time, median of ${REPEATS}`,
        ...of("large", "wallMs"),
        unit: "ms",
        baselineLabel: `the same over ${work(SMALL)}`,
        ...baselineOf(of("small", "wallMs")),
      },
      {
        figure: `${store} sandbox: the same advance over ${work(LARGE)}: CPU time, median of ${REPEATS}`,
        ...large,
        unit: "ms",
        baselineLabel: `4 × the same over ${SMALL} of each`,
        baseline: 4 * small.value,
        baselineSpread: [4 * small.spread[0], 4 * small.spread[1]],
        target: {
          text: "≤ ×1.25: grows with the work",
          met: large.value <= 1.25 * 4 * small.value,
        },
      },
      {
        figure: `${store} sandbox: the same advance over ${SMALL} of each with ${STORED.toLocaleString("en-US")} more customers stored: CPU time, median of ${REPEATS}`,
        ...crowded,
        unit: "ms",
        baselineLabel: "the same with none stored",
        ...baselineOf(small),
        target: { text: "≤ ×1.25: not with the data", met: crowded.value <= 1.25 * small.value },
      },
    );
  }
  return rows;
}

function baselineOf(measured: { value: number; spread: [number, number] }) {
  return { baseline: measured.value, baselineSpread: measured.spread };
}
