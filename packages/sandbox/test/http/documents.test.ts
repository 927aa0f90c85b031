// GET /_sandbox/openapi.json and GET /_sandbox/api/openapi.json: the test-mode document and the
// API's, with no key needed; reading them makes no partner, so it never counts against
// --max-partners. The partner limit's idle time is the one the document states.
import { loadSpec } from "@org/payments-spec";
import { call } from "@org/payments-testing";
import { expect, it } from "vitest";
import { newApiKey } from "../../src/index.js";
import { startSandbox } from "../support/sandbox.js";

const post = (url: string, key: string) =>
  call(url, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com" },
    headers: { "X-API-Key": key, "IDEMPOTENCY-KEY": crypto.randomUUID() },
  });

it("serves both documents without a key, making no partner, even at the partner limit", async () => {
  // Room for one partner: had a read made one, the key after it would be refused.
  const sandbox = await startSandbox({ maxPartners: 1 });
  try {
    const asked: Record<string, string>[] = [{}, { "X-API-Key": "" }, { "X-API-Key": newApiKey() }];
    for (const headers of asked) {
      const testMode = await call(sandbox.url, "GET", "/_sandbox/openapi.json", { headers });
      expect(testMode.status).toBe(200);
      expect(testMode.body.paths).toHaveProperty(["/_sandbox/api/openapi.json"]);
      const api = await call(sandbox.url, "GET", "/_sandbox/api/openapi.json", { headers });
      expect(api.status).toBe(200);
      expect(api.body).toEqual(JSON.parse(JSON.stringify(loadSpec())));
    }
    const partner = newApiKey();
    expect((await post(sandbox.url, partner)).status).toBe(200);
    // Full now: a new key is refused, and the documents are still read.
    const refused = await post(sandbox.url, newApiKey());
    expect(refused.status).toBe(503);
    const stated = /idle (\d+ minutes)/.exec(refused.body.detail)?.[1];
    expect(stated).toBeDefined();
    const testMode = await call(sandbox.url, "GET", "/_sandbox/openapi.json", {
      headers: { "X-API-Key": newApiKey() },
    });
    expect(testMode.status).toBe(200);
    // The document states the same rule the 503 applies, and no other.
    const description = String(testMode.body.info.description).replace(/\s+/g, " ");
    expect(description).toContain(`been idle ${stated} (real time)`);
    expect(description).not.toMatch(/idle an hour/);
    expect((await call(sandbox.url, "GET", "/_sandbox/api/openapi.json")).status).toBe(200);
  } finally {
    await sandbox.stop();
  }
});
