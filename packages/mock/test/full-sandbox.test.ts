// A sandbox with no room left (its store's StoreFullError, tested in the sandbox package) is
// answered by the mock with a 507 problem rather than a 500.

import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPrismEngine } from "@org/payments-engine";
import { type Sandbox, StoreFullError } from "@org/payments-sandbox";
import { specPath, testModeSpecPath } from "@org/payments-spec";
import { API_KEY } from "@org/payments-testing";
import { expect, it } from "vitest";
import { createHandler } from "../src/mock-handler.js";

it("answers a request the sandbox has no room for with a 507 problem", async () => {
  const engine = await createPrismEngine(specPath, false);
  const full: Sandbox = {
    answer: () => Promise.reject(new StoreFullError("The in-memory sandbox is full.")),
    control: () => Promise.reject(new Error("not called")),
    refused: async () => {},
    close: async () => {},
  };
  const server = createServer(
    createHandler(() => engine, {
      stateful: { sandbox: full, controlEngine: () => createPrismEngine(testModeSpecPath, false) },
      cors: false,
    }),
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/customers`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "X-API-Key": API_KEY,
        "IDEMPOTENCY-KEY": randomUUID(),
      },
      body: JSON.stringify({ customer_type: "Person", email: "ada@example.com" }),
    });
    expect(response.status).toBe(507);
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect(await response.json()).toMatchObject({
      type: "urn:org:payments-mock:problem:sandbox-full",
      status: 507,
      errors: [{ location: "route", rule: "storage", message: "The in-memory sandbox is full." }],
    });
  } finally {
    server.close();
    server.closeAllConnections();
  }
});
