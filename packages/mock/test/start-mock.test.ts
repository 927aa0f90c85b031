import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { API_KEY, operations, responseProblems, send, validRequest } from "@org/payments-testing";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

const started: RunningMock[] = [];
async function start(options: Parameters<typeof startMock>[0]): Promise<RunningMock> {
  const mock = await startMock({ spec: specPath, ...options });
  started.push(mock);
  return mock;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.stop()));
});

describe("startMock", () => {
  it("listens on a free port on 127.0.0.1 and answers at once", async () => {
    const mock = await start({ port: 0 });
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    const response = await fetch(`${mock.url}/documents`, { headers: { "X-API-Key": API_KEY } });
    expect(response.status).toBe(200);
  });

  it("stops listening on stop(), also when called twice", async () => {
    const mock = await start({ port: 0 });
    await Promise.all([mock.stop(), mock.stop()]);
    await expect(fetch(`${mock.url}/documents`)).rejects.toThrow();
  });

  it("says so when the port is taken", async () => {
    const mock = await start({ port: 0 });
    await expect(startMock({ spec: specPath, port: mock.port })).rejects.toThrow(
      `Port ${mock.port} on 127.0.0.1 is already in use`,
    );
  });

  it.each(["999.1.1.1", "192.0.2.1"])(
    "says so when %s is not an address of the machine",
    async (host) => {
      await expect(startMock({ spec: specPath, host, port: 0 })).rejects.toThrow(
        `${host} is not an address of this machine; listen on one it has, such as 127.0.0.1, with --host`,
      );
    },
  );

  it("opens no sandbox when it cannot listen (it listens before its store opens)", async () => {
    const mock = await start({ port: 0 });
    const folder = mkdtempSync(path.join(tmpdir(), "payments-start-mock-"));
    try {
      const state = path.join(folder, "sandbox.db");
      await expect(
        startMock({ spec: specPath, port: mock.port, stateful: true, state }),
      ).rejects.toThrow("already in use");
      // No store was opened: no file made, no connection or timer left behind.
      expect(existsSync(`${state}-wal`)).toBe(false);
      expect(existsSync(state)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("rejects a spec it cannot read", async () => {
    await expect(startMock({ spec: "/nonexistent/spec.yaml" })).rejects.toThrow();
  });

  it("has the spec bundled in the build", () => {
    const bundled = new URL("../dist/partner-payments.yaml", import.meta.url);
    expect(readFileSync(bundled, "utf8")).toBe(readFileSync(specPath, "utf8"));
  });

  it("with dynamic: true, generates data that still matches the spec for every operation", async () => {
    const mock = await start({ port: 0, dynamic: true });
    for (const { operationId } of operations) {
      const response = await send(mock.url, validRequest(operationId));
      expect(response.status, operationId).toBe(200);
      expect(responseProblems(operationId, response.body), operationId).toEqual([]);
    }
  });

  it("with watch: true, serves the changed spec after an edit", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "payments-mock-"));
    try {
      const spec = path.join(directory, "spec.yaml");
      copyFileSync(specPath, spec);
      const lines: string[] = [];
      const mock = await start({ port: 0, spec, watch: true, log: (line) => lines.push(line) });
      const customers = async () =>
        JSON.stringify((await send(mock.url, validRequest("listCustomers"))).body);
      expect(await customers()).toContain("Lumen Harbor Trading GmbH");

      writeFileSync(spec, readFileSync(spec, "utf8").replaceAll("Lumen Harbor", "Reloaded Harbor"));
      await expect.poll(customers, { timeout: 5000 }).toContain("Reloaded Harbor Trading GmbH");
      expect(lines).toContain(`spec reloaded from ${spec}`);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("logs one line per request without headers", async () => {
    const lines: string[] = [];
    const mock = await start({ port: 0, log: (line) => lines.push(line) });
    await send(mock.url, validRequest("listWebhooks"));
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/webhooks → 200 request-id=[\da-f-]{36}$/),
    ]);
    expect(lines.join("\n")).not.toContain(API_KEY);
  });
});
