// Client overhead: the same GET through raw fetch, bare openapi-fetch and @org/payments-client,
// each in a process of its own, in interleaved rounds against a fixed-JSON node:http server in
// another process. A fourth variant, bare openapi-fetch with a per-request AbortSignal and timer,
// prices a per-attempt timeout whose signal goes into openapi-fetch's Request.
import { execFileSync, fork } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { VARIANTS, type Variant } from "./client-overhead-variant.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { forkServer } from "./servers/fork-server.ts";
import { median } from "./stats.ts";

// Short rounds, each variant's turn rotating: the machine's load changes by the second, and every
// variant should meet the same load.
const REQUESTS_PER_ROUND = 20;
const WARM_UP_ROUNDS = 100;
const ROUNDS = 1_000;
const TARGET_CLIENT_VS_OPENAPI_FETCH = 1.05;

/**
 * Keeps a process on one CPU (Linux's `taskset`): the server on the first, every variant on the
 * second, so that no variant's rounds share a core with the server by the scheduler's chance.
 * Without `taskset` or a second CPU the processes run where the scheduler puts them.
 */
function pin(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || availableParallelism() < 2) return false;
  try {
    execFileSync("taskset", ["-p", "-c", String(cpu), String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A variant's process, which times a round of requests when asked. */
async function startVariant(variant: Variant, url: string) {
  const child = fork(new URL("./client-overhead-variant.ts", import.meta.url), [variant, url], {
    stdio: "inherit",
  });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the client-overhead process of ${variant} exited (${code}) mid-benchmark`);
  });
  // Reported by the reply it cuts short; once the benchmark stops the process, nothing waits.
  exited.catch(() => {});
  const reply = async <T>() => ((await Promise.race([once(child, "message"), exited])) as [T])[0];
  await reply();
  return {
    variant,
    pid: child.pid,
    round: (requests: number) => {
      child.send(requests);
      return reply<number[]>();
    },
    stop: () => child.kill(),
  };
}

export async function measureClientOverhead(): Promise<Row[]> {
  const server = await forkServer("plain");
  const variants = [];
  try {
    for (const variant of VARIANTS) variants.push(await startVariant(variant, server.url));
    const pinned = [pin(server.pid, 0), ...variants.map(({ pid }) => pin(pid, 1))].every(Boolean);
    progress(
      `client overhead: ${pinned ? "server on CPU 0, variants on CPU 1" : "not pinned to CPUs"}`,
    );
    const samples = Object.fromEntries(VARIANTS.map((name) => [name, [] as number[]]));
    for (let i = 1; i <= WARM_UP_ROUNDS + ROUNDS; i++) {
      const turn = i % variants.length;
      for (const { variant, round } of [...variants.slice(turn), ...variants.slice(0, turn)]) {
        const times = await round(REQUESTS_PER_ROUND);
        if (i > WARM_UP_ROUNDS) samples[variant]?.push(...times);
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
    for (const { stop } of variants) stop();
    await server.stop();
  }
}
