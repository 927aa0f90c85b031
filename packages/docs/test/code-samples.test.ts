import { readFileSync } from "node:fs";
import path from "node:path";
import { deref, listOperations, loadSpec, type OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { builtSamplesDir, builtSpecPath } from "../src/built-paths.ts";
import { curlSample, NEW_UUID_COMMAND, typescriptSample } from "../src/code-samples.ts";

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
      // The file that `tsconfig.samples.json` type-checks is the sample the page shows.
      expect(`${samples[0]?.source}\n`).toBe(
        readFileSync(path.join(builtSamplesDir, `${operationId}.ts`), "utf8"),
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

describe("typescriptSample", () => {
  it("uses the client and takes the API key and base URL from the environment", () => {
    for (const entry of operations) {
      const source = typescriptSample(spec, entry);
      expect(source, entry.operationId).toContain('from "@org/payments-client"');
      expect(source, entry.operationId).toContain("process.env.PAYMENTS_API_KEY");
      expect(source, entry.operationId).toContain("process.env.PAYMENTS_BASE_URL");
      expect(source, entry.operationId).toContain(
        `client.${entry.method.toUpperCase()}(${JSON.stringify(entry.path)}`,
      );
    }
  });

  it("follows the spec's examples: a changed example changes the sample", () => {
    const doc = structuredClone(spec);
    const entry = operationOf(doc, "createCustomer");
    const media = deref(doc, entry.operation.requestBody).content["application/json"];
    const example = deref(doc, Object.values(media.examples)[0]);
    expect(typescriptSample(doc, entry)).toContain(`email: ${JSON.stringify(example.value.email)}`);
    example.value = { ...example.value, email: "changed@example.org" };
    expect(typescriptSample(doc, entry)).toContain('email: "changed@example.org"');
  });

  it("fills path and required query parameters with their examples", () => {
    const quote = typescriptSample(spec, operationOf(spec, "getAutorampQuote"));
    for (const p of operationOf(spec, "getAutorampQuote").parameters) {
      if (p.in === "query" && p.required) expect(quote).toContain(`${p.name}:`);
    }
    expect(typescriptSample(spec, operationOf(spec, "getFiatAddress"))).toMatch(
      /path: \{\n\s+customer_id: "[0-9a-f-]{36}",\n\s+fiat_address_id: "[0-9a-f-]{36}"/,
    );
  });
});

describe("curlSample", () => {
  it("posts the first request body example with an API key and a fresh idempotency key", () => {
    const entry = operationOf(spec, "createDirectIdentification");
    const sample = curlSample(spec, entry);
    expect(sample).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'curl -X POST "${PAYMENTS_BASE_URL:-http://127.0.0.1:4010}/customers/3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f/identifications"',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    expect(sample).toContain('-H "X-API-Key: ${PAYMENTS_API_KEY:-sandbox-key}"');
    expect(sample).toContain(`-H "IDEMPOTENCY-KEY: $(${NEW_UUID_COMMAND})"`);
    const body = /--data '([\s\S]*)'$/.exec(sample)?.[1];
    const media = deref(spec, entry.operation.requestBody).content["application/json"];
    const example = deref(spec, Object.values(media.examples)[0]).value;
    expect(JSON.parse(body ?? "")).toEqual(example);
  });

  it("sends no idempotency key and no body on GET, and writes required query parameters", () => {
    const sample = curlSample(spec, operationOf(spec, "getExchangeRate"));
    expect(sample).not.toContain("IDEMPOTENCY-KEY");
    expect(sample).not.toContain("--data");
    const url = new URL(
      (/curl "([^"]+)"/.exec(sample)?.[1] ?? "").replace(/^\$\{[^}]+\}/, "http://h"),
    );
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
    for (const entry of operations) {
      const url = /^curl (?:-X \w+ )?"([^"]+)"/.exec(curlSample(spec, entry))?.[1] ?? "";
      expect(url.replace(/^\$\{PAYMENTS_BASE_URL:-[^}]+\}/, ""), entry.operationId).toMatch(
        /^\/[^{}]*$/,
      );
    }
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
