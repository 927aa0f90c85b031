// payments-mock impact on a sandbox where partner A created a customer and partner B only listed
// customers, against a version of the API that makes `CreateCustomerRequest.name` required: A's
// report names the break with what to do and exits 1; B's exits 0. Each report is its key's
// alone, from the running sandbox (--url) or its store (--state), and never prints the key. The
// built CLI runs where the key is held not to be printed; the other runs are of its main, in this
// process. A document whose $refs cannot be followed within it is refused before anything is read,
// and nothing is fetched.
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSpec, specPath } from "@org/payments-spec";
import { callAs, startTestSandbox, type TestSandbox } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { impactMain } from "../src/impact-cli.js";
import { type RunningSandbox, type SandboxPartner, startMock } from "../src/index.js";
import { runCli } from "./support/run-cli.js";
import { runMain } from "./support/run-main.js";

let sandbox: TestSandbox<RunningSandbox>;
let a: SandboxPartner;
let b: SandboxPartner;

const dir = mkdtempSync(join(tmpdir(), "payments-impact-"));
const state = join(dir, "impact.db");
const against = join(dir, "next.yaml");

beforeAll(async () => {
  const next = loadSpec(specPath);
  const request = next.components?.schemas?.CreateCustomerRequest as { required: string[] };
  request.required.push("name");
  writeFileSync(against, stringify(next));
  sandbox = await startTestSandbox(
    (store) => startMock({ spec: specPath, stateful: true, state: store }),
    { state },
  );
  a = sandbox.server.newPartner();
  b = sandbox.server.newPartner();
  const created = await callAs(a, "POST", "/customers", {
    customer_type: "Person",
    email: "impact@example.com",
  });
  expect(created.status).toBe(200);
  expect((await callAs(b, "GET", "/customers")).status).toBe(200);
});

afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("payments-mock impact", () => {
  it("names the break of createCustomer for A, who called it, and exits 1", async (context) => {
    const cli = runCli(
      context,
      ["impact", "--against", against, "--url", sandbox.server.url, "--format", "json"],
      { PAYMENTS_API_KEY: a.apiKey },
    );
    expect(await cli.exited).toEqual([1, null]);
    const report = JSON.parse(cli.output().stdout);
    expect(report.breaking).toBe(1);
    expect(report.changes[0]).toMatchObject({
      breaking: true,
      operation: "createCustomer",
      field: "name",
      action: "Send `name` in every request body",
      used: "createCustomer (1 call)",
    });
    expect(cli.output().stdout + cli.output().stderr).not.toContain(a.apiKey);
  });

  it("finds nothing for B, who never called createCustomer, and exits 0", async () => {
    const run = await runMain(impactMain, ["--against", against, "--url", sandbox.server.url], {
      PAYMENTS_API_KEY: b.apiKey,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("No change in");
    expect(run.stdout).not.toContain("createCustomer");
  });

  it("reads the sandbox's store with --state, as JUnit: the break a failure", async (context) => {
    const cli = runCli(
      context,
      ["impact", "--against", against, "--state", state, "--format", "junit"],
      { PAYMENTS_API_KEY: a.apiKey },
    );
    expect(await cli.exited).toEqual([1, null]);
    const xml = cli.output().stdout;
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('classname="impact.createCustomer"');
    expect(xml).not.toContain(a.apiKey);
  });

  it("reads a proxy's traffic file of live traffic with --from", async () => {
    const line = (operation: string, method: string) =>
      JSON.stringify({
        type: "exchange",
        time: "2026-11-28T08:00:00.000Z",
        request: 1,
        method,
        operation,
        status: 200,
      });
    const created = join(dir, "created.ndjson");
    const listed = join(dir, "listed.ndjson");
    writeFileSync(created, `${line("createCustomer", "POST")}\n`);
    writeFileSync(listed, `${line("listCustomers", "GET")}\n`);
    const runs = await Promise.all([
      runMain(impactMain, ["--against", against, "--from", created, "--format", "markdown"]),
      runMain(impactMain, ["--against", against, "--from", listed]),
    ]);
    expect(runs.map((run) => run.code)).toEqual([1, 0]);
    expect(runs[0]?.stdout).toContain("| ✗ breaking | createCustomer (POST /customers)");
  });

  it("exits 2 without --against, with a document that is not OpenAPI, or no key", async () => {
    const notOpenApi = join(dir, "not-openapi.yaml");
    writeFileSync(notOpenApi, "hello: world\n");
    const url = sandbox.server.url;
    const runs = await Promise.all([
      runMain(impactMain, ["--url", url], { PAYMENTS_API_KEY: "k" }),
      runMain(impactMain, ["--against", notOpenApi, "--url", url], { PAYMENTS_API_KEY: "k" }),
      runMain(impactMain, ["--against", against, "--url", url], { PAYMENTS_API_KEY: "" }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
    expect(runs[0]?.stderr).toContain("--against");
    expect(runs[1]?.stderr).toContain("is not an OpenAPI document");
    expect(runs[2]?.stderr).toContain("PAYMENTS_API_KEY");
  });

  it("refuses a $ref to another host, one that loops or one to nothing, fetching nothing (exit 2)", async () => {
    const fetched: string[] = [];
    const remote = createServer((request, response) => {
      fetched.push(request.url ?? "");
      response.end("{}");
    });
    remote.listen(0, "127.0.0.1");
    await once(remote, "listening");
    const { port } = remote.address() as AddressInfo;
    const withRefs = (name: string, parameters: Record<string, unknown>, ref: string) => {
      const next = loadSpec(specPath);
      next.components.parameters = { ...next.components.parameters, ...parameters };
      const [first] = Object.values(next.paths);
      if (first !== undefined) first.parameters = [{ $ref: ref }];
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(next));
      return file;
    };
    const documents = [
      withRefs("remote.json", {}, `http://127.0.0.1:${port}/parameter.json`),
      withRefs(
        "loop.json",
        { A: { $ref: "#/components/parameters/B" }, B: { $ref: "#/components/parameters/A" } },
        "#/components/parameters/A",
      ),
      withRefs("nothing.json", {}, "#/components/parameters/Nothing"),
    ];
    try {
      const runs = await Promise.all(
        documents.map((document) =>
          runMain(impactMain, ["--against", document, "--url", sandbox.server.url], {
            PAYMENTS_API_KEY: "k",
          }),
        ),
      );
      expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
      const [toRemote, loop, nothing] = runs.map((run) => run.stderr);
      expect(toRemote).toMatch(
        /the \$ref at #\/paths\/.*\/parameters\/0 is "http:.*fetches nothing/,
      );
      expect(loop).toContain("leads back to #/components/parameters/A");
      expect(nothing).toContain("#/components/parameters/Nothing, which is not in the document");
      for (const stderr of runs.map((run) => run.stderr)) expect(stderr).not.toMatch(/\n\s+at /);
      expect(fetched).toEqual([]);
    } finally {
      remote.close();
    }
  });
});
