// parseWebhookEvent: a received body (text, bytes or parsed JSON) checked as a webhook event and
// typed by its topic; what is not one is refused naming the field. isWebhookEventOf narrows.
import { describe, expect, it } from "vitest";
import { isWebhookEventOf, parseWebhookEvent, WebhookEventError } from "../src/index.js";

const event = {
  id: "5b7d9f1a-3c5e-4a7b-9d1f-3b5d7f9a1c3e",
  topic: "CustomerStatus",
  created_at: "2026-03-06T10:00:00.000Z",
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  data: { id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f", status: "Active" },
};

describe("parseWebhookEvent", () => {
  it("takes the body as text, bytes or parsed JSON, and narrows by topic", () => {
    const text = JSON.stringify(event);
    for (const body of [text, new TextEncoder().encode(text), JSON.parse(text)]) {
      const parsed = parseWebhookEvent(body);
      expect(parsed).toEqual(event);
      if (!isWebhookEventOf(parsed, "CustomerStatus")) throw new Error("not narrowed");
      expect(parsed.data.status).toBe("Active");
      expect(isWebhookEventOf(parsed, "Ping")).toBe(false);
    }
  });

  it("takes the bytes as an ArrayBuffer, as `await request.arrayBuffer()` gives them", () => {
    const bytes = new TextEncoder().encode(JSON.stringify(event));
    expect(parseWebhookEvent(bytes.buffer)).toEqual(event);
    expect(parseWebhookEvent(new DataView(bytes.buffer))).toEqual(event);
  });

  it.each([
    ["{", "the body is not JSON"],
    ["[1]", "the body is not a JSON object"],
    [{ ...event, id: 7 }, "`id` must be a non-empty string"],
    [{ ...event, topic: "CustomerDeleted" }, "`topic` must be one of Transaction, NewBankAccount"],
    [{ ...event, customer_id: 1 }, "`customer_id` must be a string or null"],
    [{ ...event, data: "x" }, "`data` must be an object"],
  ])("refuses %j, naming what is wrong", (body, message) => {
    expect(() => parseWebhookEvent(body)).toThrow(WebhookEventError);
    expect(() => parseWebhookEvent(body)).toThrow(message);
  });

  it("takes an event about no customer", () => {
    const ping = { ...event, topic: "Ping", customer_id: null, data: { webhook_id: "w1" } };
    const parsed = parseWebhookEvent(ping);
    expect(isWebhookEventOf(parsed, "Ping") && parsed.data.webhook_id).toBe("w1");
  });
});
