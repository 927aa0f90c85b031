// A request's transaction that Postgres ends to break a deadlock (it and another each hold a row
// the other waits for) runs again: the request is answered, not failed with the store's error.
import { expect, it } from "vitest";
import { holdingResource, newStore, untilWaitingForLock } from "../support/postgres-store.js";

const A = "partner-a";

it("runs a request's transaction again when Postgres ends it to break a deadlock", async (context) => {
  const { url, store } = await newStore(context);
  await store.transaction(A, async (tx) => {
    await tx.enter(0);
    await tx.insert("customers", { id: "cus_1", status: "Created" }, undefined);
    await tx.insert("customers", { id: "cus_2", status: "Created" }, undefined);
  });
  const other = await holdingResource(context, url, "cus_2");
  let attempts = 0;
  const request = store.transaction(A, async (tx) => {
    attempts++;
    await tx.update("customers", { id: "cus_1", status: "Active" });
    await tx.update("customers", { id: "cus_2", status: "Active" });
    return attempts;
  });
  // The request holds cus_1 and waits for cus_2; the other now waits for cus_1.
  await untilWaitingForLock(other, "UPDATE resources%");
  await other.query("SELECT id FROM resources WHERE id = 'cus_1' FOR UPDATE");
  await other.query("COMMIT");

  expect(await request).toBe(2);
  const statuses = await store.transaction(A, async (tx) =>
    (await tx.list("customers")).map((stored) => stored.resource.status),
  );
  expect(statuses).toEqual(["Active", "Active"]);
});
