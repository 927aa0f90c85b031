// A sandbox whose Postgres does not take connections yet: it listens at once, answers every
// request (GET /_sandbox/health too) with 503 while it waits, and once the database answers it
// opens its store, says it listens, and its health check answers 200.
import { createServer } from "node:net";
import { call, createDatabase } from "@org/payments-testing";
import { expect, inject, it } from "vitest";
import { runCli } from "../support/run-cli.js";
import { startTcpRelay } from "../support/tcp-relay.js";

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it("answers 503 while its database does not take connections, then 200 once its store opened", async (context) => {
  const database = new URL(await createDatabase(inject("postgresUrl")));
  const postgresPort = Number(database.port);
  const [dbPort, port] = [await freePort(), await freePort()];
  database.port = String(dbPort);
  const mock = runCli(context, ["--port", String(port), "--stateful", "--state", database.href]);
  const url = `http://127.0.0.1:${port}`;
  const health = () =>
    call(url, "GET", "/_sandbox/health", { headers: { "X-API-Key": "" } }).catch(() => undefined);
  let waiting = await health();
  for (let tries = 0; tries < 200 && waiting === undefined; tries++) {
    await new Promise((wake) => setTimeout(wake, 50));
    waiting = await health();
  }
  expect(waiting?.status).toBe(503);
  expect(waiting?.body.detail).toContain("the sandbox is starting");
  expect(mock.output().stdout).not.toContain("listening on");

  // The database comes up (a relay to the test Postgres on the port the sandbox was given).
  const relay = await startTcpRelay(postgresPort, dbPort);
  context.onTestFinished(() => relay.close());
  expect(await mock.url).toBe(url);
  const ready = await health();
  expect(ready?.status).toBe(200);
  expect(ready?.body).toMatchObject({ status: "ready", store: "postgres" });
}, 60_000);
