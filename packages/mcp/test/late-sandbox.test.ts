// A sandbox started after the server (the assistant opened before `npm start`): the server lists
// the API's tools and refuses writes while nothing answers, then, once the sandbox answers, tells
// the client that its tools changed and lists the test mode's too.
import { createServer } from "node:net";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMock } from "@org/payments-mock";
import { listOperations, loadSpec } from "@org/payments-spec";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./support/servers.js";
import { type Session, startSession, textOf } from "./support/session.js";

const apiOperations = listOperations(loadSpec()).length;
let session: Session | undefined;
let sandbox: RunningServer | undefined;

afterAll(async () => {
  await session?.close();
  await sandbox?.stop();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a sandbox that starts after the server", () => {
  it("brings its test-mode tools, announced by notifications/tools/list_changed", async () => {
    const port = await freePort();
    const started = await startSession(`http://127.0.0.1:${port}`);
    session = started;
    let changed = 0;
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    expect(await session.tools()).toHaveLength(apiOperations);
    const refused = await session.call("createCustomer", {
      customer_type: "Person",
      email: "early@example.com",
    });
    expect(textOf(refused)).toContain(
      `could not tell whether http://127.0.0.1:${port} is a sandbox`,
    );

    sandbox = await startMock({ stateful: true, port });
    const listed = await session.call("listCustomers", {});
    expect(listed.isError).toBeFalsy();
    // A busy machine can keep a new sandbox from answering the probe in time: the next call asks again.
    await expect
      .poll(async () => {
        if (changed === 0) await started.call("listCustomers", {});
        return changed;
      })
      .toBe(1);
    expect((await session.tools()).length).toBeGreaterThan(apiOperations);
    const created = await session.call("createCustomer", {
      customer_type: "Person",
      email: "late@example.com",
    });
    expect(created.isError).toBeFalsy();
  });
});
