// What the bin says when it cannot start: one line, naming what is missing, never the key.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { bin, SECRET_KEY } from "./support/session.js";

const run = async (args: string[], env: Record<string, string> = {}) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

const oneLine = (text: string) => {
  expect(text.trimEnd().split("\n")).toHaveLength(1);
  return text;
};

describe("payments-mcp cannot start", () => {
  it.each([
    [[], {}, "PAYMENTS_API_KEY is not set"],
    [[], { PAYMENTS_API_KEY: "  " }, "PAYMENTS_API_KEY is not set"],
    [["--api-key", SECRET_KEY], {}, "--api-key is not an option"],
    [[`--api-key=${SECRET_KEY}`], { PAYMENTS_API_KEY: "k" }, "set PAYMENTS_API_KEY"],
    [["--base-url", "ftp://example.com"], { PAYMENTS_API_KEY: SECRET_KEY }, "not an absolute http"],
    // Not a URL, it was quoted whole, its password with it.
    [
      ["--base-url", "http://partner:hunter2@127.0.0.1:99999"],
      { PAYMENTS_API_KEY: SECRET_KEY },
      'the base URL "http://…@127.0.0.1:99999" (--base-url or PAYMENTS_BASE_URL) has the port 99999, past 65535',
    ],
    [
      ["--base-url", "http://partner:hunter2@127.0.0.1:4010:1"],
      { PAYMENTS_API_KEY: SECRET_KEY },
      'the base URL "http://…@127.0.0.1:4010:1" (--base-url or PAYMENTS_BASE_URL) is not an absolute',
    ],
    [["--base-url", "http://127.0.0.1:4010/?v=1"], { PAYMENTS_API_KEY: SECRET_KEY }, "has a query"],
    [["--base-url", "http://127.0.0.1:4010/#top"], { PAYMENTS_API_KEY: SECRET_KEY }, "or fragment"],
    [
      [],
      { PAYMENTS_API_KEY: SECRET_KEY, PAYMENTS_BASE_URL: "http://partner:hunter2@127.0.0.1:4010" },
      "holds credentials",
    ],
    [
      [],
      { PAYMENTS_API_KEY: SECRET_KEY, PAYMENTS_BASE_URL: "localhost:4010" },
      "PAYMENTS_BASE_URL",
    ],
    [["--sub-partner-id", "acme"], { PAYMENTS_API_KEY: SECRET_KEY }, "must be a UUID"],
    [["--bogus"], { PAYMENTS_API_KEY: SECRET_KEY }, "--help lists the options"],
    [["--port", "4031"], { PAYMENTS_API_KEY: SECRET_KEY }, "go with --http"],
    [
      ["--read-only", "--allow-writes"],
      { PAYMENTS_API_KEY: SECRET_KEY },
      "--read-only and --allow-writes contradict each other",
    ],
    [["--http", "--port", "99999"], { PAYMENTS_API_KEY: SECRET_KEY }, "--port must be"],
    [["--toolsets", "customers,bogus"], { PAYMENTS_API_KEY: SECRET_KEY }, "bogus is not a toolset"],
    [["--toolsets", ""], { PAYMENTS_API_KEY: SECRET_KEY }, "--toolsets: no toolset"],
    // Quoted in lower case with dashes, the key was no longer the key the redaction looks for.
    [
      ["--toolsets", `customers,${SECRET_KEY}`],
      { PAYMENTS_API_KEY: SECRET_KEY },
      "is not a toolset",
    ],
  ])("%j %j: %s", async (args, env, said) => {
    const { code, stdout, stderr } = await run(args, env);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(oneLine(stderr)).toMatch(/^payments-mcp cannot start: /);
    expect(stderr).toContain(said);
    expect(stderr).not.toContain(SECRET_KEY);
    expect(stderr.toLowerCase().replace(/[^a-z0-9]+/g, "-")).not.toContain("9f8e7d6c5b4a");
    expect(stderr).not.toContain("hunter2");
  });

  it.each([
    ["999.1.1.1", "--host 999.1.1.1 is not an address of this machine"],
    ["192.0.2.1", "--host 192.0.2.1 is not an address of this machine"],
  ])("--http --host %s: %s", async (host, said) => {
    const { code, stderr } = await run(["--http", "--host", host, "--port", "0"], {
      PAYMENTS_API_KEY: SECRET_KEY,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`payments-mcp cannot start: ${said}`);
  });

  it("--http --port of a port in use: says to choose another", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      const { port } = taken.address() as { port: number };
      const { code, stderr } = await run(["--http", "--port", String(port)], {
        PAYMENTS_API_KEY: SECRET_KEY,
      });
      expect(code).toBe(2);
      expect(stderr).toContain(
        `payments-mcp cannot start: port ${port} on 127.0.0.1 is in use: choose another with --port`,
      );
    } finally {
      taken.close();
    }
  });

  it("answers --help and --version without a key", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("PAYMENTS_API_KEY");
    expect(help.stdout).toContain("--allow-writes");
    // The README's Configuration table names the options --help lists, each with its value.
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = /## Configuration\n\n(\| Setting[\s\S]*?)\n\n/.exec(readme)?.[1] ?? "";
    const named = (text: string, flag: RegExp) =>
      [...new Set([...text.matchAll(flag)].map((match) => match[1]))].sort();
    expect(named(table, /`(--[\w-]+(?: <[^>]+>)?)`/g)).toEqual(
      named(help.stdout, /^ {2}(--(?!help\b)[\w-]+(?: <[^>]+>)?)/gm),
    );
    const version = await run(["--version"]);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
