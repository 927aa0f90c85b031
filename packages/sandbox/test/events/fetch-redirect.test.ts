// The fetch sender (a browser's) is told a redirect only as an opaque answer of status 0: its
// attempt fails saying that redirects are not followed, as Node's sender says of a 3xx, not as
// "HTTP 0".
import { expect, it } from "vitest";
import { DEFAULT_DELIVERY_LIMITS, fetchWebhookSender } from "../../src/events/index.js";

it("records a browser's opaque redirect as a redirect not followed", async () => {
  const requests: RequestInit[] = [];
  const opaque = async (_: unknown, init?: RequestInit) => {
    if (init !== undefined) requests.push(init);
    return { type: "opaqueredirect", status: 0, body: null } as Response;
  };
  const sender = fetchWebhookSender(DEFAULT_DELIVERY_LIMITS, undefined, opaque as typeof fetch);
  const url = "http://127.0.0.1:9/hook";
  expect(await sender.deliver(url, { id: "e1" })).toEqual({
    delivered: false,
    failure_reason: `${url} answered with a redirect: redirects are not followed`,
  });
  expect(requests.map((init) => init.redirect)).toEqual(["manual"]);
});
