// What the bench's servers and clients send: the spec's own examples for /customers.
import { loadSpec, resolveRef } from "@org/payments-spec";

/** Not a secret: only ever sent to servers on 127.0.0.1 started by the bench. */
export const API_KEY = "bench-api-key-not-a-secret";

const spec = loadSpec();

function example(name: string): unknown {
  const node = resolveRef(spec, `#/components/examples/${name}`) as { value: unknown };
  return node.value;
}

/** The page GET /customers answers with. */
export const customerPage = example("CustomerPage");
/** The body of a valid POST /customers, and the customer it creates. */
export const createCustomerRequest = example("CreateCustomerRequest");
export const createdCustomer = example("CreatedCustomer");
/** The body of a valid POST /customers for a person. */
export const createPersonCustomerRequest = example("CreatePersonCustomerRequest");

/** Every topic a webhook can subscribe to, as the spec lists them. */
export const webhookTopics = (
  resolveRef(spec, "#/components/schemas/WebhookTopic") as { enum: string[] }
).enum;

/** The spec's example webhook. */
export const exampleWebhook = (example("WebhookPage") as { items: Record<string, unknown>[] })
  .items[0] as Record<string, unknown>;

/** The documents customers sign, as the spec's example lists them. */
export const exampleDocuments = (example("DocumentPage") as { items: unknown[] }).items;
/** The body of a valid POST /autoramps (its customer_id to be replaced). */
export const createAutorampRequest = example("CreateAutorampRequest") as Record<string, unknown>;
