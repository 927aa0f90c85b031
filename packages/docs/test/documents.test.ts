// The built site serves both OpenAPI documents, the API's and the test mode's, each as YAML and
// JSON, for a client generator or a download, and both reference pages link them. The files are
// the documents as authored (the test mode's made one file, as the sandbox serves it), served
// with their media types by the docs server.
import { readFileSync } from "node:fs";
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { loadBundledSpec, loadSpec, testModeSpecPath } from "@org/payments-spec";
import { startTestSandbox } from "@org/payments-testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { distDir } from "../src/built-paths.ts";
import { DOCUMENTS, DOCUMENTS_DIR } from "../src/documents.ts";
import { TEST_MODE_PAGE } from "../src/pages.ts";
import { startStaticServer } from "../src/static-server.ts";

const built = (file: string) => readFileSync(path.join(distDir, DOCUMENTS_DIR, file), "utf8");

describe("the documents of the built site", () => {
  it("are the API's and the test mode's, the YAML and the JSON of each the same document", () => {
    const expected = {
      "partner-payments": loadSpec(),
      "test-mode": loadBundledSpec(testModeSpecPath),
    };
    for (const { name } of DOCUMENTS) {
      const json = JSON.parse(built(`${name}.json`));
      expect(json, name).toEqual(expected[name]);
      expect(parse(built(`${name}.yaml`)), name).toEqual(json);
      expect(json.openapi).toBe("3.1.0");
      // A generator reads them as they are: every $ref is inside the file.
      const refs = JSON.stringify(json).match(/"\$ref":"[^"]*"/g) ?? [];
      expect(
        refs.filter((ref) => !ref.startsWith('"$ref":"#/')),
        name,
      ).toEqual([]);
      expect(JSON.stringify(json), name).not.toContain("x-codeSamples");
    }
  });

  it("hold the test-mode document the running sandbox serves", async () => {
    const sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
    try {
      const served = await fetch(`${sandbox.url}/_sandbox/openapi.json`);
      expect(JSON.parse(built("test-mode.json"))).toEqual(await served.json());
    } finally {
      await sandbox.stop();
    }
  });

  it("are linked, YAML and JSON, from both reference pages", () => {
    for (const page of ["index.html", TEST_MODE_PAGE]) {
      const html = readFileSync(path.join(distDir, page), "utf8");
      for (const { name } of DOCUMENTS) {
        for (const format of ["yaml", "json"]) {
          expect(html, `${page}: ${name}.${format}`).toContain(
            `href="${DOCUMENTS_DIR}/${name}.${format}"`,
          );
        }
      }
    }
  });

  it("are served with their media types", async () => {
    const docs = await startStaticServer({ root: distDir });
    try {
      for (const { name } of DOCUMENTS) {
        const yaml = await fetch(new URL(`${DOCUMENTS_DIR}/${name}.yaml`, docs.url));
        expect(yaml.status).toBe(200);
        expect(yaml.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
        expect(parse(await yaml.text()).info.title).toBeTypeOf("string");
        const json = await fetch(new URL(`${DOCUMENTS_DIR}/${name}.json`, docs.url));
        expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect((await json.json()).openapi).toBe("3.1.0");
      }
    } finally {
      await docs.close();
    }
  });
});
