// What a kill -9 test of the request log needs: creates answered under a key of the test's own,
// then what the request log and the readiness counts of that key hold.
import { call, createCustomer } from "@org/payments-testing";
import type { runCli } from "./run-cli.js";

/** `amount` creates under `apiKey`, `lanes` at a time; resolves once every one is answered 200. */
async function answeredCreates(url: string, apiKey: string, amount: number, lanes = 10) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < amount) {
        next++;
        await createCustomer(url, { name: `Answered ${next}` }, { "X-API-Key": apiKey });
      }
    }),
  );
}

/** The key's createCustomer entries in the request log, every page read. */
async function loggedCreates(url: string, apiKey: string): Promise<number> {
  let logged = 0;
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? "" : `&cursor=${cursor}`;
    const page = await call(
      url,
      "GET",
      `/_sandbox/requests?operation_id=createCustomer&page_size=100${query}`,
      { headers: { "X-API-Key": apiKey } },
    );
    if (page.status !== 200) throw new Error(`request log: ${JSON.stringify(page.body)}`);
    logged += page.body.items.length;
    cursor = page.body.cursor;
  } while (cursor !== undefined);
  return logged;
}

/** The key's createCustomer calls answered 200, as its readiness report counts them. */
async function countedCreates(url: string, apiKey: string): Promise<number> {
  const report = await call(url, "GET", "/_sandbox/readiness", {
    headers: { "X-API-Key": apiKey },
  });
  if (report.status !== 200) throw new Error(`readiness: ${JSON.stringify(report.body)}`);
  return report.body.coverage.operations.createCustomer.statuses["200"] ?? 0;
}

/**
 * Starts the CLI, has `amount` creates answered under `apiKey`, kills it (kill -9) at once upon
 * the last answer (nothing is given time to be written after it), and starts it again: what its
 * request log and readiness counts then hold of those creates.
 */
export async function keptAfterKill(
  start: () => ReturnType<typeof runCli>,
  apiKey: string,
  amount: number,
): Promise<{ logged: number; counted: number }> {
  const first = start();
  await answeredCreates(await first.url, apiKey, amount);
  first.child.kill("SIGKILL");
  await first.exited;
  const again = await start().url;
  return {
    logged: await loggedCreates(again, apiKey),
    counted: await countedCreates(again, apiKey),
  };
}
