// An in-memory sandbox holds at most 1 GiB (SQLite's memdb). A change past that fails with an
// error that says what to do, and the mock answers it with a 507 problem rather than a 500; the
// data already there stays readable, and a reset makes room again.

import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPrismEngine } from "@org/payments-engine/engine/prism.js";
import { dataFromSeed } from "@org/payments-sandbox/api/seed.js";
import type { Sandbox } from "@org/payments-sandbox/sandbox.js";
import { EXAMPLE_PARTNER_ID } from "@org/payments-sandbox/store/partner.js";
import { openSqliteStore } from "@org/payments-sandbox/store/sqlite-store.js";
import { StoreFullError } from "@org/payments-sandbox/store/store.js";
import { specPath } from "@org/payments-spec";
import { expect, it } from "vitest";
import { API_KEY } from "../../../engine/test/support/spec-requests.js";
import { createHandler } from "../../src/mock-handler.js";

/** Sandbox data with nothing in it. */
const empty = () => dataFromSeed({});

const customer = () => ({ id: randomUUID(), email: `${randomUUID()}@example.com` });

it("refuses a change past its limit with a StoreFullError, keeps what it has, and has room after a reset", async () => {
  const store = await openSqliteStore(undefined, empty, { memoryLimitBytes: 256 * 1024 });
  try {
    let failure: unknown;
    let stored = 0;
    while (failure === undefined && stored < 10_000) {
      await store
        .transaction(EXAMPLE_PARTNER_ID, (tx) => tx.insert("customers", customer(), undefined))
        .then(
          () => stored++,
          (error: unknown) => (failure = error),
        );
    }
    expect(failure).toBeInstanceOf(StoreFullError);
    // The limit it names is the one the store was opened with.
    expect((failure as Error).message).toMatch(
      /in-memory sandbox is full: it holds at most 256 KiB\./,
    );
    expect((failure as Error).message).toContain("POST /_sandbox/reset");
    expect((failure as Error).message).toContain("--state <file>");
    expect(stored).toBeGreaterThan(100);
    expect(await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.list("customers"))).toHaveLength(
      stored,
    );

    await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.replaceAll(empty()));
    await store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
      tx.insert("customers", customer(), undefined),
    );
    expect(await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.list("customers"))).toHaveLength(
      1,
    );
  } finally {
    await store.close();
  }
});

it("answers a request the sandbox has no room for with a 507 problem", async () => {
  const engine = await createPrismEngine(specPath, false);
  const full: Sandbox = {
    answer: () => Promise.reject(new StoreFullError("The in-memory sandbox is full.")),
    control: () => Promise.reject(new Error("not called")),
    refused: () => {},
    close: async () => {},
  };
  const server = createServer(createHandler(() => engine, { sandbox: full, cors: false }));
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
