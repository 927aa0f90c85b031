// sandboxHandlers given what a caller gets wrong, or right in a way the first tests do not show: a
// base URL ending in the service's path prefix, as a partner's does; a base URL, a key or an
// onDelivery the handlers cannot work with; a control the sandbox refuses; the handlers used after
// close().
import { createPaymentsClient } from "@org/payments-client";
import { specPath } from "@org/payments-spec";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DeliveryCallback, sandboxHandlers } from "../../src/msw/index.js";

describe("a base URL with the service's path prefix", () => {
  const baseUrl = "https://partner.payments.test/api/v2/";
  const handlers = sandboxHandlers({ baseUrl, spec: specPath });
  const server = setupServer(...handlers);
  beforeAll(() => server.listen());
  afterAll(async () => {
    server.close();
    await handlers.close();
  });

  it("answers the API's routes under the prefix, and the controls act on them", async () => {
    const partner = handlers.newPartner();
    const payments = createPaymentsClient({ apiKey: partner.apiKey, baseUrl, maxRetries: 0 });
    const customer = await payments.customers.create({
      customer_type: "Person",
      email: "ada@prefix.example",
    });
    await partner.setStatus("customers", customer.id, "Active");
    const listed = await payments.customers.list();
    expect(listed.items.map((item) => [item.id, item.status])).toEqual([[customer.id, "Active"]]);
    expect(handlers.baseUrl).toBe("https://partner.payments.test/api/v2");
  });
});

describe("options the handlers cannot work with", () => {
  it.each([
    "ftp://api.payments.test",
    "mailto:api@payments.test",
    "https://api.payments.test?version=2",
    "https://api.payments.test/#v2",
    "https://user:secret@api.payments.test",
  ])("refuses the baseUrl %s at once, naming the option and the rule", (baseUrl) => {
    expect(() => sandboxHandlers({ baseUrl, spec: specPath })).toThrow(
      /^sandboxHandlers: baseUrl .* is not an absolute http\(s\) URL without a query, fragment or credentials/,
    );
  });

  it.each(["", " key", "line\nbreak"])(
    "refuses the apiKey %j at once, without quoting it",
    (apiKey) => {
      expect(() => sandboxHandlers({ baseUrl: "https://api.payments.test", apiKey })).toThrow(
        /^sandboxHandlers: apiKey must be a non-empty valid HTTP header value \(Latin-1, no line breaks, controls or outer spaces\)/,
      );
    },
  );

  it.each([
    [{ exampleKey: "" }, "exampleKey must be a non-empty valid HTTP header value"],
    [{ seed: [] }, "seed must be a seed object"],
    [{ seed: "seed.json" }, "seed must be a seed object"],
    [{ onDelivery: "fetch" }, "onDelivery must be a function"],
    [{ deliveryChaos: { seed: "7" } }, "deliveryChaos must be { seed: n }, n a whole number"],
  ])("refuses %j at once, naming the option and the rule", (wrong, rule) => {
    const options = { baseUrl: "https://api.payments.test", spec: specPath, ...wrong };
    expect(() => sandboxHandlers(options as never)).toThrow(`sandboxHandlers: ${rule}`);
  });

  it("closes, after a seed the sandbox refused at the first request", async () => {
    const handlers = sandboxHandlers({
      baseUrl: "https://api.payments.test",
      spec: specPath,
      seed: { customers: 5 },
    });
    await expect(handlers.fetch("customers")).rejects.toThrow(/"customers" must be an array/);
    await expect(handlers.close()).resolves.toBeUndefined();
  });
});

describe("an onDelivery that gives no status", () => {
  const handlers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const made of handlers) await made.close();
  });

  /** The failure reason of the first delivery of a customer's status change to `onDelivery`. */
  async function failureOf(onDelivery: DeliveryCallback): Promise<string | undefined> {
    const made = sandboxHandlers({
      baseUrl: "https://api.payments.test",
      spec: specPath,
      onDelivery,
    });
    handlers.push(made);
    const partner = made.newPartner();
    await partner.addWebhook({ url: "https://app.test/hooks", topics: ["CustomerStatus"] });
    const created = await made.fetch("customers", {
      method: "POST",
      headers: {
        "x-api-key": partner.apiKey,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({ customer_type: "Person", email: "hook@b.example" }),
    });
    await partner.setStatus("customers", ((await created.json()) as { id: string }).id, "Active");
    // The delivery is recorded once it ends: wait for its record, however long the machine takes.
    const [event] = await vi.waitFor(
      async () => {
        const events = await partner.events({ topic: "CustomerStatus" });
        if (events.length === 0) throw new Error("no delivery recorded yet");
        return events;
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(event?.delivered).toBe(false);
    return event?.failure_reason;
  }

  it("fails a delivery whose callback never settles, as a receiver that never answers", async () => {
    expect(await failureOf(() => new Promise<void>(() => {}))).toBe(
      "the delivery callback did not settle within 2000 ms",
    );
  });

  it("fails a delivery whose callback returns no HTTP status, saying what it must return", async () => {
    const returnsText = (() => "200") as unknown as DeliveryCallback;
    expect(await failureOf(returnsText)).toBe(
      "the delivery callback returned a string: it must return an HTTP status (a whole number from 100 to 599) or nothing",
    );
  });

  it("says what a callback threw that is no Error", async () => {
    expect(
      await failureOf(() => {
        throw "receiver offline";
      }),
    ).toBe("the delivery callback threw: receiver offline");
  });
});

it("names the route and the sandbox's reason when it refuses a control", async () => {
  const handlers = sandboxHandlers({ baseUrl: "https://api.payments.test", spec: specPath });
  try {
    await expect(handlers.setStatus("customers", "no-such-id", "Active")).rejects.toThrow(
      /^POST \/_sandbox\/customers\/no-such-id\/status answered 404: /,
    );
  } finally {
    await handlers.close();
  }
});

it("refuses the controls and requests after close(), instead of opening a sandbox no one closes", async () => {
  const handlers = sandboxHandlers({ baseUrl: "https://api.payments.test", spec: specPath });
  await handlers.clock();
  await handlers.close();
  await expect(handlers.clock()).rejects.toThrow(
    "sandboxHandlers: the handlers were closed; make new ones",
  );
  await expect(handlers.fetch("customers")).rejects.toThrow("the handlers were closed");
});
