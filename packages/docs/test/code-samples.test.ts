import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deref, listOperations, loadSpec, type OpenApiDocument } from "@org/payments-spec";
import { afterEach, describe, expect, it } from "vitest";
import { builtSpecPath } from "../scripts/build.mjs";
import { curlSample, samplesDir, withCodeSamples } from "../scripts/code-samples.mjs";

const spec = loadSpec();
const operations = listOperations(spec);

function operationOf(doc: OpenApiDocument, operationId: string) {
  const entry = listOperations(doc).find((candidate) => candidate.operationId === operationId);
  if (!entry) throw new Error(`no operation ${operationId}`);
  return entry;
}

describe("the build copy of the spec", () => {
  const built = JSON.parse(readFileSync(builtSpecPath, "utf8")) as OpenApiDocument;

  it("gives every operation of the spec a TypeScript and a curl sample", () => {
    const builtOperations = listOperations(built);
    expect(builtOperations.map((entry) => entry.operationId)).toEqual(
      operations.map((entry) => entry.operationId),
    );
    for (const { operationId, operation } of builtOperations) {
      const samples = operation["x-codeSamples"] as {
        lang: string;
        label: string;
        source: string;
      }[];
      expect(
        samples.map(({ lang, label }) => [lang, label]),
        operationId,
      ).toEqual([
        ["TypeScript", "TypeScript"],
        ["curl", "curl"],
      ]);
      expect(samples[0]?.source).toBe(
        readFileSync(path.join(samplesDir, `${operationId}.ts`), "utf8").trimEnd(),
      );
      expect(samples[1]?.source, operationId).toMatch(/^curl /);
    }
  });

  it("leaves the hand-authored spec without samples", () => {
    for (const { operationId, operation } of operations) {
      expect(operation["x-codeSamples"], operationId).toBeUndefined();
    }
  });
});

describe("the TypeScript samples", () => {
  it("use the client and take the API key from the environment", () => {
    for (const { operationId } of operations) {
      const source = readFileSync(path.join(samplesDir, `${operationId}.ts`), "utf8");
      expect(source, operationId).toContain('from "@org/payments-client"');
      expect(source, operationId).toContain("process.env.PAYMENTS_API_KEY");
    }
  });
});

describe("curlSample", () => {
  it("posts the first request body example with an API key and a fresh idempotency key", () => {
    const entry = operationOf(spec, "createDirectIdentification");
    const sample = curlSample(spec, entry);
    expect(sample).toContain(
      'curl -X POST "https://sandbox.example.com/api/customers/3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f/identifications"',
    );
    expect(sample).toContain('-H "X-API-Key: $PAYMENTS_API_KEY"');
    expect(sample).toContain('-H "IDEMPOTENCY-KEY: $(uuidgen)"');
    const body = /--data '([\s\S]*)'$/.exec(sample)?.[1];
    const media = deref(spec, entry.operation.requestBody).content["application/json"];
    const example = deref(spec, Object.values(media.examples)[0]).value;
    expect(JSON.parse(body ?? "")).toEqual(example);
  });

  it("sends no idempotency key and no body on GET, and writes required query parameters", () => {
    const sample = curlSample(spec, operationOf(spec, "getExchangeRate"));
    expect(sample).not.toContain("IDEMPOTENCY-KEY");
    expect(sample).not.toContain("--data");
    const url = new URL(/curl "([^"]+)"/.exec(sample)?.[1] ?? "");
    const required = operationOf(spec, "getExchangeRate")
      .parameters.filter((p) => p.in === "query" && p.required)
      .map((p) => p.name);
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) expect(url.searchParams.has(name), name).toBe(true);
  });

  it("repeats an array query parameter once per item", () => {
    const sample = curlSample(spec, operationOf(spec, "listAutorampTransactionsByIds"));
    expect(sample).toContain("/autoramp-transactions/ids?ids=1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64");
  });

  it("fills every path parameter", () => {
    for (const entry of operations)
      expect(curlSample(spec, entry), entry.operationId).not.toMatch(/[{}]"/);
  });

  it("quotes single quotes in a body for the shell", () => {
    const doc = structuredClone(spec);
    const entry = operationOf(doc, "createCustomer");
    entry.operation.requestBody = {
      content: { "application/json": { example: { name: "O'Brien Ltd" } } },
    };
    expect(curlSample(doc, entry)).toContain(`"name": "O'\\''Brien Ltd"`);
  });

  it("names the operation and parameter that has no example", () => {
    const doc = structuredClone(spec);
    const entry = operationOf(doc, "getAutorampByExternalId");
    const parameter = entry.parameters.find((p) => p.name === "external_id");
    if (!parameter) throw new Error("external_id missing");
    delete parameter.example;
    parameter.schema = { type: "string" };
    expect(() => curlSample(doc, entry)).toThrow(
      'getAutorampByExternalId: path parameter "external_id" needs an example',
    );
  });
});

describe("withCodeSamples", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("names the operations without a sample and the samples without an operation", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "docs-samples-"));
    for (const { operationId } of operations.slice(1)) {
      copyFileSync(path.join(samplesDir, `${operationId}.ts`), path.join(dir, `${operationId}.ts`));
    }
    writeFileSync(path.join(dir, "deleteCustomer.ts"), "export {};\n");
    const missing = operations[0]?.operationId;
    expect(() => withCodeSamples(spec, dir)).toThrow(
      `no sample for: ${missing}.ts; sample without an operation: deleteCustomer.ts`,
    );
  });
});
