// A webhook event as a partner's receiver gets it, checked and typed: the envelope the sandbox
// sends (`id`, `topic`, `created_at`, `customer_id`, `data`), its topic one of the API's, and its
// type the topic's, so that `if (event.topic === "TransactionStatus")` narrows `event.data` to a
// transaction. The API description does not show payloads; these are the sandbox's, documented in
// its test-mode document.
import {
  WEBHOOK_TOPICS,
  type WebhookEvent,
  type WebhookEventByTopic,
  type WebhookTopic,
} from "@org/payments-types";

/** A received body that is not a webhook event: `message` names the field and what is wrong. */
export class WebhookEventError extends Error {
  constructor(message: string) {
    super(`not a webhook event: ${message}`);
    this.name = "WebhookEventError";
  }
}

/**
 * The received body (its text, its bytes as a Uint8Array or an ArrayBuffer, or the JSON already
 * parsed) as a webhook event, typed by its topic; throws WebhookEventError when it is not one. The
 * envelope and the topic are checked; `data` is the topic's resource as the API answers it (an
 * object).
 */
export function parseWebhookEvent(body: string | Uint8Array | unknown): WebhookEvent {
  // `await request.arrayBuffer()` (Workers, Deno, browsers) gives an ArrayBuffer, not a Uint8Array.
  const bytes = ArrayBuffer.isView(body) || body instanceof ArrayBuffer;
  const value = typeof body === "string" || bytes ? parsed(body as string | ArrayBuffer) : body;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WebhookEventError("the body is not a JSON object");
  }
  const event = value as Record<string, unknown>;
  const text = (field: string) => {
    if (typeof event[field] !== "string" || event[field] === "") {
      throw new WebhookEventError(`\`${field}\` must be a non-empty string`);
    }
  };
  text("id");
  text("created_at");
  if (!(WEBHOOK_TOPICS as readonly unknown[]).includes(event.topic)) {
    throw new WebhookEventError(
      `\`topic\` must be one of ${WEBHOOK_TOPICS.join(", ")}, got ${JSON.stringify(event.topic)}`,
    );
  }
  if (event.customer_id !== null && typeof event.customer_id !== "string") {
    throw new WebhookEventError("`customer_id` must be a string or null");
  }
  if (typeof event.data !== "object" || event.data === null || Array.isArray(event.data)) {
    throw new WebhookEventError("`data` must be an object");
  }
  return value as WebhookEvent;
}

/** Whether the event is of `topic`: narrows it to that topic's event (and its `data`). */
export function isWebhookEventOf<Topic extends WebhookTopic>(
  event: WebhookEvent,
  topic: Topic,
): event is WebhookEventByTopic[Topic] {
  return event.topic === topic;
}

function parsed(body: string | ArrayBuffer | ArrayBufferView): unknown {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookEventError("the body is not JSON");
  }
}
