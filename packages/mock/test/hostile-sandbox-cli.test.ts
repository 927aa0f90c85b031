// Every client-side command against a server that is no sandbox and quotes back what it was sent:
// it echoes the API key and answers with terminal control sequences (a window title, a colour).
// Whatever of its answer a command prints, it prints neither the key nor a control character raw:
// each is written as \u001b, so the user's terminal is not driven by a server. A server that
// redirects elsewhere is not followed: the key goes to the URL given, nowhere else. One that
// never answers listen's receipts does not hold its stop.
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const KEY = "pk_test_ECHOED_by_a_hostile_server";
/** A window title, then red: what a terminal would act on if printed raw. */
const SEQUENCES = "\x1b]0;owned\x07\x1b[31m";
/** Control characters but the line break and tab, as a terminal acts on them. */
const CONTROL = /(?![\n\t])\p{Cc}/u;

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

/** What was sent elsewhere: the path, and the key it came with. */
const sentElsewhere: { url: string; key: unknown }[] = [];
const keysSentElsewhere = (prefix: string) =>
  sentElsewhere.filter(({ url }) => url.startsWith(prefix)).map(({ key }) => key);
const elsewhere = createServer((request, response) => {
  sentElsewhere.push({ url: request.url ?? "", key: request.headers["x-api-key"] });
  response.writeHead(404, { "content-type": "application/json" }).end("{}");
});
/**
 * /receipts/…: an event stream of one event, and the receivers' answers (POST
 * /_sandbox/events/receipts) redirected elsewhere; any other request redirected elsewhere.
 */
const redirecting = createServer((request, response) => {
  if (request.url === "/receipts/_sandbox/events/stream") {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write('id: 1\nevent: CustomerCreated\ndata: {"id":"evt_1"}\n\n');
    return;
  }
  response.writeHead(307, { location: `${urlOf(elsewhere)}${request.url}` }).end();
});

const urlOf = (listening: typeof server) =>
  `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
let base: string;
beforeAll(async () => {
  for (const each of [server, elsewhere, redirecting]) {
    each.listen(0, "127.0.0.1");
    await once(each, "listening");
  }
  base = urlOf(server);
});
afterAll(async () => {
  for (const each of [server, elsewhere, redirecting]) {
    each.closeAllConnections();
    await new Promise((done) => each.close(done));
  }
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

describe.concurrent("a URL that redirects elsewhere", () => {
  it.for(["readiness", "logs tail", "listen"])(
    "payments-mock %s says so and sends the key nowhere else",
    async (command, context) => {
      const prefix = `/${command.replace(" ", "-")}/`;
      const run = runCli(context, [...command.split(" "), "--url", urlOf(redirecting) + prefix], {
        PAYMENTS_API_KEY: KEY,
      });
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toMatch(/answered 307.*a redirect to http.*, not followed/);
      expect(keysSentElsewhere(prefix)).not.toContain(KEY);
    },
  );

  it("payments-mock listen sends the receivers' answers to the sandbox only", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const run = runCli(
      context,
      ["listen", "--url", `${urlOf(redirecting)}/receipts/`, "--forward-to", receiver.url],
      { PAYMENTS_API_KEY: KEY },
    );
    await new Promise<void>((resolve) => {
      run.child.stderr?.on("data", () => {
        if (run.output().stderr.includes("did not take the receivers' answers")) resolve();
      });
    });
    run.child.kill("SIGINT");
    await run.exited;
    expect(keysSentElsewhere("/receipts/")).not.toContain(KEY);
  });
});
