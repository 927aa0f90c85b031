// A key's day of webhook deliveries, for the tests that kill a sandbox in the middle of one:
// customers onboarded through the API with an identification each, a webhook on every topic to a
// receiver of the test's, and an advance of the clock whose reviews make the events.
import { call, spec, startReceiver } from "@org/payments-testing";
import type { TestContext } from "vitest";

/** The identifications' reviews (5 minutes) and what they approve. */
export const DAY_SECONDS = 3_600;

/** Every topic a webhook subscribes to. */
const TOPICS = (spec.components?.schemas?.WebhookTopic as { enum?: string[] } | undefined)?.enum;
if (TOPICS === undefined) throw new Error("the API description declares no WebhookTopic enum");

/** A receiver that acknowledges every delivery (204), stopped when the test ends. */
export async function countingReceiver(context: TestContext) {
  const receiver = await startReceiver();
  context.onTestFinished(() => receiver.stop());
  const ids = () => receiver.deliveries.map((delivery) => String(delivery.body.id));
  return {
    receiver,
    /** The deliveries received so far. */
    received: () => receiver.deliveries.length,
    /** How many deliveries were of an event received before. */
    duplicates: () => ids().length - new Set(ids()).size,
    /** The events of `expected` not received. */
    missing: (expected: readonly string[]) => {
      const got = new Set(ids());
      return expected.filter((id) => !got.has(id));
    },
  };
}

/**
 * A webhook on every topic to the receiver, and `count` customers each with an identification
 * under review (sent to the sandboxes at `urls` in turn); resolves once their events are
 * delivered, so that what the receiver gets next is the day's.
 */
export async function prepareDay(
  urls: readonly string[],
  key: string,
  receiverUrl: string,
  count: number,
) {
  const headers = { "X-API-Key": key };
  const first = urls[0] as string;
  const webhook = await call(first, "POST", "/_sandbox/webhooks", {
    body: { url: `${receiverUrl}/hooks`, topics: TOPICS },
    headers,
  });
  if (webhook.status !== 201 && webhook.status !== 200) {
    throw new Error(`webhook: ${JSON.stringify(webhook.body)}`);
  }
  const connections = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const index = next++;
        const url = urls[index % urls.length] as string;
        const customer = await call(url, "POST", "/customers", {
          body: { customer_type: "Person", email: `day${index}@example.com`, name: `Day ${index}` },
          headers: { ...headers, "IDEMPOTENCY-KEY": crypto.randomUUID() },
        });
        if (customer.status !== 200) throw new Error(`customer: ${JSON.stringify(customer.body)}`);
        const identification = await call(
          url,
          "POST",
          `/customers/${customer.body.id}/identifications`,
          {
            body: { type: "Direct" },
            headers: { ...headers, "IDEMPOTENCY-KEY": crypto.randomUUID() },
          },
        );
        if (identification.status !== 200) {
          throw new Error(`identification: ${JSON.stringify(identification.body)}`);
        }
      }
    }),
  );
  // An advance by nothing delivers what is due now, and answers once it has.
  await advance(first, key, 0);
}

/** Advances the key's clock; resolves to the answer (`ran`: the jobs run). */
export async function advance(url: string, key: string, seconds: number) {
  // Its own limit: an advance waits for work a dead process held until its hold lapses.
  const response = await fetch(`${url}/_sandbox/clock/advance`, {
    method: "POST",
    headers: { "X-API-Key": key, "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
    signal: AbortSignal.timeout(90_000),
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`advance: ${JSON.stringify(body)}`);
  return body as { ran: number };
}

/** Every event in the key's event log (its ids), through the pages of GET /_sandbox/events/log. */
export async function loggedEvents(url: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? "" : `&cursor=${cursor}`;
    const page = await call(url, "GET", `/_sandbox/events/log?page_size=100${query}`, {
      headers: { "X-API-Key": key },
    });
    if (page.status !== 200) throw new Error(`event log: ${JSON.stringify(page.body)}`);
    ids.push(...page.body.items.map((event: { id: string }) => event.id));
    cursor = page.body.cursor;
  } while (cursor !== undefined);
  return ids;
}
