// Receipts: what listen tells the sandbox of its receivers' answers. A sandbox that never answers
// them must not hold listen's stop: a batch is given up after its time, and said once.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { Receipts } from "../../src/listen/receipts.js";

it("gives up a batch the sandbox never answers, says so once, and settles", async (context) => {
  // Takes the request, and never answers.
  const silent = createServer(() => {}).listen(0, "127.0.0.1");
  await once(silent, "listening");
  context.onTestFinished(() => {
    silent.closeAllConnections();
    return new Promise<void>((done) => silent.close(() => done()));
  });
  const { port } = silent.address() as AddressInfo;
  const warnings: string[] = [];
  const receipts = new Receipts(
    new URL(`http://127.0.0.1:${port}/`),
    "payments-receipts-test-key",
    (warning) => warnings.push(warning),
    200,
  );
  receipts.add({ id: "evt_1", cursor: "1", status_code: 200 });
  receipts.add({ id: "evt_2", cursor: "2", status_code: 500 });
  await receipts.settled();
  expect(warnings).toEqual([
    "the sandbox did not take the receivers' answers for its readiness report (no answer within 0.2 s)",
  ]);
  expect(receipts.waiting).toBe(0);
});
