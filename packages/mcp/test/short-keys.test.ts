// The sandbox takes any non-empty key, `0` and `test` among them. Such a key occurs in a protocol
// field or a customer's data by chance: the server must neither rewrite those (it once turned
// `"2025-06-18"` into `"2[redacted]25-…"` and the client timed out) nor fail to start; it warns
// that the key is easy to guess, and still takes the key out of an error that quotes it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_KEY_LENGTH, redactText } from "../src/redact.ts";
import { type RunningServer, startSandbox } from "./support/servers.js";
import { allTextOf, bin, INITIALIZE, startSession, textOf } from "./support/session.js";

let sandbox: RunningServer;

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox?.stop();
});

/** The first line the bin answers to `initialize`, with the key given. */
async function initializeLine(apiKey: string): Promise<string> {
  const child = spawn(process.execPath, [bin], {
    env: { PATH: process.env.PATH ?? "", PAYMENTS_API_KEY: apiKey, PAYMENTS_BASE_URL: sandbox.url },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const exited = once(child, "exit");
  child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  let output = "";
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("\n")) resolve();
    });
  });
  child.stdin.end();
  await exited;
  return output.split("\n")[0] ?? "";
}

describe.each(["0", "test", "k8-chars"])("with the key %j", (apiKey) => {
  it("answers initialize as it is, and warns once that the key is easy to guess", async () => {
    const answer = JSON.parse(await initializeLine(apiKey));
    expect(answer.result.protocolVersion).toBe("2025-06-18");
    expect(answer.result.serverInfo.name).toBe("payments-mcp");

    const session = await startSession(sandbox.url, { apiKey });
    try {
      await session.tools();
      const warnings = session
        .stderr()
        .split("\n")
        .filter((line) => line.includes("easy to guess"));
      expect(warnings).toEqual([
        `payments-mcp: warning: the API key is ${apiKey.length} character${apiKey.length === 1 ? "" : "s"} long, under ${MIN_KEY_LENGTH}: easy to guess, fine for a local sandbox only`,
      ]);
    } finally {
      await session.close();
    }
  });

  it("returns data that holds the key as the sandbox answered it", async () => {
    const session = await startSession(sandbox.url, { apiKey });
    try {
      const email = `qa-${apiKey}@lumen${apiKey}0.test`;
      const name = `${apiKey} ${apiKey}-${apiKey} 2025-06-18 10`;
      const created = await session.ok("createCustomer", { customer_type: "Person", email, name });
      expect(created.email).toBe(email);
      expect(created.name).toBe(name);
      const found = await session.call("listCustomers", { search_term: email });
      const items = found.structuredContent?.items as { email: string; name: string }[];
      expect(items.map((item) => [item.email, item.name])).toEqual([[email, name]]);
      expect(JSON.parse(textOf(found)).items[0].name).toBe(name);
      // An error keeps its numbers and words; only the key standing alone would go.
      const missing = await session.call("getFiatAddress", {
        customer_id: String(created.id),
        fiat_address_id: "00000000-0000-4000-8000-000000000000",
      });
      expect(missing.isError).toBe(true);
      expect(allTextOf(missing)).toContain("HTTP 404");
      expect(allTextOf(missing)).not.toContain("[redacted]");
    } finally {
      await session.close();
    }
  });
});

describe("redactText", () => {
  it("takes a short key out only where it stands as a token of its own", () => {
    expect(redactText("HTTP 404: key 0 refused", "0")).toBe("HTTP 404: key [redacted] refused");
    expect(redactText('{"key":"test","n":0}', "test")).toBe('{"key":"[redacted]","n":0}');
    expect(redactText("X-API-Key: 0\nat 127.0.0.1:4010", "0")).toBe(
      "X-API-Key: [redacted]\nat 127.0.0.1:4010",
    );
    expect(redactText("qa-test@lumen.test attested testing", "test")).toBe(
      "qa-test@lumen.test attested testing",
    );
  });

  it("takes a long key out wherever it is, as is and as JSON escapes it", () => {
    const key = 'sk_live_"quoted"_0123456789';
    const escaped = JSON.stringify(key).slice(1, -1);
    expect(redactText(`a${key}b ${escaped}`, key)).toBe("a[redacted]b [redacted]");
  });
});
