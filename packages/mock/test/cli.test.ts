// The built CLI, as a user runs it: it must print its URL, serve, and exit cleanly on a signal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { API_KEY } from "@org/payments-testing";
import { describe, expect, it } from "vitest";
import { startMock } from "../src/index.js";
import { runCli as run } from "./support/run-cli.js";

// Concurrent: each test waits mostly for a CLI process to load Prism.
describe.concurrent("payments-mock CLI", () => {
  // One run takes its port and host from PORT and HOST, the other from --port.
  it.for([
    ["SIGTERM", [], { PORT: "0", HOST: "127.0.0.1" }],
    ["SIGINT", ["--port", "0"], {}],
  ] as const)(
    "serves the bundled spec and exits 0 on %s (port and host from %j %j)",
    async ([signal, args, env], context) => {
      const mock = run(context, [...args], env);
      const url = await mock.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/webhooks`, {
        headers: { "X-API-Key": API_KEY },
        // The first answer loads the generator (Faker and its locales): slow on a loaded machine.
        signal: AbortSignal.timeout(30_000),
      });
      expect(response.status).toBe(200);

      mock.child.kill(signal);
      expect(await mock.exited).toEqual([0, null]);
      await expect(fetch(`${url}/webhooks`)).rejects.toThrow();
      expect(mock.output().stdout).toContain("GET /webhooks → 200");
    },
  );

  it.for(["--version", "-v"])("prints the package's version with %s", async (flag, context) => {
    const { version } = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    const mock = run(context, [flag]);
    expect(await mock.exited).toEqual([0, null]);
    expect(mock.output()).toEqual({ stdout: `${version}\n`, stderr: "" });
  });

  it("generates data with --dynamic, loading the deferred generator at its first use", async (context) => {
    const mock = run(context, ["--port", "0", "--dynamic"]);
    const url = await mock.url;
    expect(mock.output().stdout).toContain("(dynamic data)");
    const bodies = [];
    for (let call = 0; call < 2; call++) {
      const response = await fetch(`${url}/webhooks`, {
        headers: { "X-API-Key": API_KEY },
        // The first answer loads the generator (Faker and its locales): slow on a loaded machine.
        signal: AbortSignal.timeout(30_000),
      });
      expect(response.status).toBe(200);
      bodies.push(await response.text());
    }
    // Generated, not the spec's example: each answer is new data.
    expect(bodies[0]).not.toBe(bodies[1]);
    expect(JSON.parse(bodies[0] ?? "")).toHaveProperty("items");
  });

  it("prints its usage on --help", async (context) => {
    const help = run(context, ["--help"]);
    expect((await help.exited)[0]).toBe(0);
    expect(help.output().stdout).toContain("--dynamic");
  });

  it.for<[string[], string]>([
    [["--colour"], "unknown option --colour; the options are listed below"],
    [["--qiet"], "unknown option --qiet; did you mean --quiet?"],
    [["--stateful", "--stat", "x.db"], "unknown option --stat; did you mean --state?"],
    [["--no-cros"], "unknown option --no-cros; did you mean --no-cors?"],
    [["--port", "http"], '--port must be an integer from 0 to 65535, got "http"'],
    [["--port", "70000"], "--port must be an integer"],
    // A negative value is the option's own rule broken, not a missing value.
    [["--port", "-1"], '--port must be an integer from 0 to 65535, got "-1"'],
    [["--port=-1"], '--port must be an integer from 0 to 65535, got "-1"'],
    [["--port", "65536"], '--port must be an integer from 0 to 65535, got "65536"'],
    [["--port", "1.5"], '--port must be an integer from 0 to 65535, got "1.5"'],
    [["--port", "abc"], '--port must be an integer from 0 to 65535, got "abc"'],
    [
      ["--stateful", "--idle-days", "-3"],
      '--idle-days must be a number of days, 0 or more, got "-3"',
    ],
    [
      ["proxy", "http://127.0.0.1:1", "--port", "-1"],
      '--port must be an integer from 0 to 65535, got "-1"',
    ],
    [["extra"], "extra"],
    // Node listened on every interface for an empty host, and the state was memory for an empty path.
    [["--host", "", "--port", "0"], "--host is empty: give the interface to listen on"],
    [
      ["proxy", "http://127.0.0.1:1", "--host", "", "--port", "0"],
      "--host is empty: give the interface to listen on",
    ],
    [
      ["--stateful", "--state", "", "--port", "0"],
      "--state is empty: give --state the path of a file",
    ],
    // An option of one value, given twice: the last one used to win unsaid.
    [["--port", "0", "--port", "0"], "--port was given more than once: give it once"],
    [["--spec=a.yaml", "--spec", "b.yaml"], "--spec was given more than once: give it once"],
    [
      ["proxy", "http://127.0.0.1:1", "--spec", "a.yaml", "--spec", "b.yaml"],
      "--spec was given more than once",
    ],
  ])("rejects %j with a clear message and exit code 2", async ([args, message], context) => {
    const mock = run(context, args);
    expect((await mock.exited)[0]).toBe(2);
    expect(mock.output().stderr).toContain(message);
  });

  it("exits 1 with a clear message when the port is busy", async (context) => {
    const busy = await startMock({ port: 0, spec: specPath });
    try {
      const mock = run(context, ["--port", String(busy.port)]);
      expect((await mock.exited)[0]).toBe(1);
      expect(mock.output().stderr).toContain(`Port ${busy.port} on 127.0.0.1 is already in use`);
    } finally {
      await busy.stop();
    }
  });

  it("refuses a --spec that is no OpenAPI document, an alias bomb included, before serving (exit 1)", async (context) => {
    const folder = mkdtempSync(path.join(tmpdir(), "payments-mock-spec-"));
    const levels = Array.from({ length: 10 }, (_, level) => {
      const below = level === 0 ? "*a" : `*b${level - 1}`;
      return `b${level}: &b${level} [${Array(10).fill(below).join(", ")}]`;
    });
    const files = {
      "bomb.yaml": `openapi: 3.1.0\na: &a [x, x, x]\n${levels.join("\n")}\npaths: { /x: *b9 }\n`,
      "deep.yaml": `openapi: 3.1.0\npaths: ${"[".repeat(5000)}${"]".repeat(5000)}\n`,
      "hello.yaml": "hello: world\n",
    };
    try {
      for (const [name, text] of Object.entries(files))
        writeFileSync(path.join(folder, name), text);
      for (const [name, said] of [
        ["bomb.yaml", "is neither YAML nor JSON: "],
        ["deep.yaml", "is neither YAML nor JSON: nests lists or maps too deeply to read"],
        ["hello.yaml", "is not an OpenAPI document (it needs `openapi` and `paths`)"],
      ]) {
        const file = path.join(folder, name ?? "");
        const mock = run(context, ["--port", "0", "--spec", file]);
        expect((await mock.exited)[0], name).toBe(1);
        expect(mock.output().stderr, name).toContain(`payments-mock: The spec ${file} ${said}`);
        expect(mock.output().stderr.trimEnd().split("\n"), name).toHaveLength(1);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
