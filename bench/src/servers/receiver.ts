// The bench's webhook receiver (webhook-receiver.ts, in a process of its own) and the webhook a
// sandbox's seed points at it, subscribed to every topic.
import { once } from "node:events";
import { exampleWebhook, webhookTopics } from "./fixtures.ts";
import { forkReporting } from "./fork-server.ts";

export interface Receiver {
  url: string;
  deliveries(): Promise<number>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const { child, message, stop } = await forkReporting<{ url: string }>(
    new URL("./webhook-receiver.ts", import.meta.url),
    [],
    "the webhook receiver",
  );
  return {
    url: message.url,
    async deliveries() {
      const answer = once(child, "message") as Promise<[{ deliveries: number }]>;
      child.send("count");
      return (await answer)[0].deliveries;
    },
    stop,
  };
}

/** The spec's example webhook, subscribed to every topic, delivering to `receiver`. */
export function webhookOnEveryTopic(receiver: string) {
  const { id, partner_id, created_at, updated_at } = exampleWebhook;
  return {
    ...{ id, partner_id, created_at, updated_at },
    enabled: true,
    label: "Bench receiver",
    topics: webhookTopics,
    url: `${receiver}/webhook`,
  };
}
