// The webhook events' types: `topic` narrows an event to its topic's, and `data` to that topic's
// resource; every topic has its event.
import { expectTypeOf, test } from "vitest";
import type {
  AutorampTransaction,
  Customer,
  TransactionStatusEvent,
  WebhookEvent,
  WebhookEventByTopic,
  WebhookTopic,
} from "../src/index.js";

test("topic narrows an event and its data", () => {
  const handle = (event: WebhookEvent) => {
    if (event.topic === "TransactionStatus") {
      expectTypeOf(event).toEqualTypeOf<TransactionStatusEvent>();
      expectTypeOf(event.data).toEqualTypeOf<AutorampTransaction>();
    } else if (event.topic === "CustomerCreated") {
      expectTypeOf(event.data).toEqualTypeOf<Customer>();
    } else if (event.topic === "Ping") {
      expectTypeOf(event.data).toEqualTypeOf<{ webhook_id: string }>();
    }
    expectTypeOf(event.customer_id).toEqualTypeOf<string | null>();
  };
  expectTypeOf(handle).toBeFunction();
});

test("every topic has its event", () => {
  expectTypeOf<keyof WebhookEventByTopic>().toEqualTypeOf<WebhookTopic>();
  expectTypeOf<WebhookEvent["topic"]>().toEqualTypeOf<WebhookTopic>();
});
