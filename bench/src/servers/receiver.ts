// The bench's webhook receiver (webhook-receiver.ts, in a process of its own) and the webhook a
// sandbox's seed points at it, subscribed to every topic.
import { fork } from "node:child_process";
import { once } from "node:events";
import { exampleWebhook, webhookTopics } from "./fixtures.ts";

export interface Receiver {
  url: string;
  deliveries(): Promise<number>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const child = fork(new URL("./webhook-receiver.ts", import.meta.url), {
    stdio: "inherit",
  });
  const exited = once(child, "exit");
  const [message] = (await Promise.race([once(child, "message"), exited])) as [unknown];
  if (message === null || typeof message !== "object") {
    throw new Error("the webhook receiver exited before it listened");
  }
  return {
    url: (message as { url: string }).url,
    async deliveries() {
      const answer = once(child, "message") as Promise<[{ deliveries: number }]>;
      child.send("count");
      return (await answer)[0].deliveries;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
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
