// Every client-side command against a server that is no sandbox and quotes back what it was sent:
// it echoes the API key and answers with terminal control sequences (a window title, a colour).
// Whatever of its answer a command prints, it prints neither the key nor a control character raw:
// each is written as \u001b, so the user's terminal is not driven by a server.
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const KEY = "pk_test_ECHOED_by_a_hostile_server";
/** A window title, then red: what a terminal would act on if printed raw. */
const SEQUENCES = "\x1b]0;owned\x07\x1b[31m";
/** Control characters but the line break and tab, as a terminal acts on them. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const folder = mkdtempSync(path.join(tmpdir(), "payments-hostile-cli-"));
const fixture = path.join(folder, "steps.json");
writeFileSync(
  fixture,
  JSON.stringify({ steps: [{ name: "list", method: "GET", path: "/customers" }] }),
);

/** /text/…: a 500 of plain text; /problem/…: a 401 problem whose detail holds the sequences. */
const server = createServer((request, response) => {
  const echoed = `${SEQUENCES}you sent ${request.headers["x-api-key"]}`;
  if (request.url?.startsWith("/text/")) {
    response.writeHead(500, { "content-type": "text/plain" }).end(echoed);
  } else {
    response
      .writeHead(401, { "content-type": "application/problem+json" })
      .end(JSON.stringify({ title: echoed, detail: echoed }));
  }
});
let base: string;
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  rmSync(folder, { recursive: true, force: true });
});

const COMMANDS: [string, string[]][] = [
  ["fixtures", ["fixtures", fixture]],
  ["trigger", ["trigger", "CustomerCreated"]],
  ["listen", ["listen"]],
  ["logs tail", ["logs", "tail"]],
  ["readiness", ["readiness"]],
  ["impact", ["impact", "--against", specPath]],
];

describe.concurrent.each(COMMANDS)("payments-mock %s", (_name, args) => {
  it.for(["text", "problem"])(
    "prints neither the key nor a control character of a %s answer",
    async (kind, context) => {
      const run = runCli(context, [...args, "--url", `${base}/${kind}/`], {
        PAYMENTS_API_KEY: KEY,
      });
      // listen retries a 500: once it has said so, it has printed what it prints of the answer.
      const said = new Promise<void>((resolve) => {
        run.child.stderr?.on("data", () => resolve());
        run.child.stdout?.on("data", () => {
          if (run.output().stdout.includes("FAIL")) resolve();
        });
      });
      await Promise.race([run.exited, said]);
      if (run.child.exitCode === null) run.child.kill("SIGINT");
      await run.exited;
      const { stdout, stderr } = run.output();
      expect(stdout + stderr).not.toContain(KEY);
      expect(stdout + stderr).not.toMatch(CONTROL);
    },
  );
});
