// A JSON state file written by payments-mock 0.1 (the fixture) moves into SQLite on start: the
// data is all there, the JSON file is kept byte for byte, and one line says what happened.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { call } from "@org/payments-testing";
import { afterAll, describe, expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { EXAMPLE_KEY } from "../support/schema-one.js";

const fixture = fileURLToPath(new URL("../fixtures/state-0.1.json", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUB_PARTNER = { ...EXAMPLE_KEY, "X-SUB-PARTNER-ID": "7d2f0c1e-3a4b-4c5d-8e9f-a0b1c2d3e4f5" };
const KEY = { "IDEMPOTENCY-KEY": "0b9a6a3e-5d1c-4f7e-9a2b-0c1d2e3f4a5b" };

describe("a payments-mock 0.1 JSON state file", () => {
  it("moves into SQLite, keeps the JSON as a byte-identical backup and says so in one line", async () => {
    const state = join(dir, "sandbox.json");
    copyFileSync(fixture, state);
    // The log gets request lines too; the migration's is the one about the JSON state file.
    const lines: string[] = [];
    const log = (line: string) => {
      if (line.includes("JSON state file")) lines.push(line);
    };
    const mock = await serveSandbox({ spec: specPath, state, log });
    try {
      expect(readFileSync(`${state}.0.1-backup.json`)).toEqual(readFileSync(fixture));
      expect(readFileSync(state).subarray(0, 15).toString()).toBe("SQLite format 3");
      expect(lines).toEqual([
        expect.stringMatching(
          /was a payments-mock 0.1 JSON state file; its data \(\d+ resources, 1 idempotency keys, 0 events\) is now in a SQLite database/,
        ),
      ]);
      const listed = await call(mock.url, "GET", "/customers", { headers: SUB_PARTNER });
      expect(listed.body.items.map((c: { name: string }) => c.name)).toEqual(["Kept From 0.1"]);
      const replay = await call(mock.url, "POST", "/customers", {
        body: { customer_type: "Person", email: "kept@example.com", name: "Kept From 0.1" },
        headers: { ...SUB_PARTNER, ...KEY },
      });
      expect(replay.body).toEqual(listed.body.items[0]);
      const webhooks = await call(mock.url, "GET", "/webhooks", { headers: EXAMPLE_KEY });
      expect(webhooks.body.items[0].label).toBe("Renamed in 0.1");
    } finally {
      await mock.stop();
    }
    // Started again, it is simply the database: nothing more to migrate.
    const again = await serveSandbox({ spec: specPath, state, log });
    await again.stop();
    expect(lines).toHaveLength(1);
  });

  it("is left untouched, and nothing is written, when its backup name is taken", async () => {
    const state = join(dir, "taken.json");
    copyFileSync(fixture, state);
    writeFileSync(`${state}.0.1-backup.json`, "mine");
    await expect(serveSandbox({ spec: specPath, state })).rejects.toThrow(
      /backup .*taken\.json\.0\.1-backup\.json already exists/,
    );
    expect(readFileSync(state)).toEqual(readFileSync(fixture));
  });

  it("refuses a SQLite database that is not a sandbox's, naming it, untouched", async () => {
    const { DatabaseSync } = await import("node:sqlite");
    const state = join(dir, "other.db");
    const other = new DatabaseSync(state);
    other.exec("CREATE TABLE notes (text TEXT)");
    other.close();
    const before = readFileSync(state);
    await expect(serveSandbox({ spec: specPath, state })).rejects.toThrow(
      `The sandbox state file ${state} is a SQLite database, but not a sandbox's`,
    );
    expect(readFileSync(state)).toEqual(before);
  });

  it("refuses a state path that is a directory, naming it, before reading it", async () => {
    await expect(serveSandbox({ spec: specPath, state: dir })).rejects.toThrow(
      `The sandbox state file ${dir} is a directory: give --state the path of a file`,
    );
  });

  it("refuses a state file in a folder that does not exist, naming the file", async () => {
    const state = join(dir, "no-such-folder", "sandbox.db");
    await expect(serveSandbox({ spec: specPath, state })).rejects.toThrow(
      `The sandbox state file ${state} cannot be opened: unable to open database file (does its folder exist`,
    );
  });
});
