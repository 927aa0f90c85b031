// A spec file is read by yaml before Prism: what is not an OpenAPI document in YAML or JSON is
// refused in a line naming the file, an alias bomb included, which Prism's reader would expand
// until the process ran out of time or memory. A $ref to another host, in the spec or in a file of
// its own it $refs, is refused before Prism's reader would fetch it.

import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { readOperations } from "../../../src/engine/prism/read-operations.js";

const folder = mkdtempSync(path.join(tmpdir(), "payments-engine-specs-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const written = (name: string, text: string) => {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
};

const levels = Array.from({ length: 10 }, (_, level) => {
  const below = level === 0 ? "*a" : `*b${level - 1}`;
  return `b${level}: &b${level} [${Array(10).fill(below).join(", ")}]`;
});

it.for<[string, string, string]>([
  [
    "an alias bomb",
    `openapi: 3.1.0\na: &a [x, x, x]\n${levels.join("\n")}\npaths: { /x: *b9 }\n`,
    "is neither YAML nor JSON: Excessive alias count",
  ],
  [
    "lists nested past what the parser can read",
    `openapi: 3.1.0\npaths: ${"[".repeat(5000)}${"]".repeat(5000)}\n`,
    "is neither YAML nor JSON: nests lists or maps too deeply to read",
  ],
  ["YAML with no openapi", "hello: world\n", "is not an OpenAPI document"],
])("refuses %s, naming the file", async ([name, text, said]) => {
  const file = written(`${name.replaceAll(" ", "-")}.yaml`, text);
  await expect(readOperations(file)).rejects.toThrow(`The spec ${file} ${said}`);
});

it("names a file it cannot read", async () => {
  const file = path.join(folder, "missing.yaml");
  await expect(readOperations(file)).rejects.toThrow(`The spec ${file} cannot be read: ENOENT`);
});

it("reads a spec that is one", async () => {
  const spec = fileURLToPath(new URL("../../fixtures/specs/requests.yaml", import.meta.url));
  expect((await readOperations(spec)).length).toBeGreaterThan(0);
});

it("refuses a $ref to another host, in the spec or in a file it $refs, fetching nothing", async () => {
  const fetched: string[] = [];
  const remote = createServer((request, response) => {
    fetched.push(request.url ?? "");
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ type: "string" }));
  });
  remote.listen(0, "127.0.0.1");
  await once(remote, "listening");
  const { port } = remote.address() as AddressInfo;
  const at = `http://127.0.0.1:${port}/schema.json`;
  const responses = (ref: string) =>
    `{ "200": { description: ok, content: { application/json: { schema: { $ref: "${ref}" } } } } }`;
  const document = (ref: string) =>
    `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    get:\n      responses: ${responses(ref)}\n`;
  try {
    const direct = written("remote-ref.yaml", document(at));
    await expect(readOperations(direct)).rejects.toThrow(
      `The spec ${direct}: the $ref at #/paths/~1x/get/responses/200/content/application~1json/schema is "${at}", at another host`,
    );
    written("schemas.yaml", `Thing: { $ref: "${at}" }\n`);
    const through = written("through-file.yaml", document("./schemas.yaml#/Thing"));
    await expect(readOperations(through)).rejects.toThrow(
      `${path.join(folder, "schemas.yaml")}, which it $refs: the $ref at #/Thing is "${at}"`,
    );
    const object = { openapi: "3.1.0", paths: { "/x": { $ref: at } } };
    await expect(readOperations(object)).rejects.toThrow("at another host");
    expect(fetched).toEqual([]);
  } finally {
    remote.close();
  }
});

it("reads a spec whose $refs go to a file of its own", async () => {
  written("local-schemas.yaml", "Thing: { type: string }\n");
  const spec = written(
    "local-ref.yaml",
    `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /x:\n    get:\n      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "./local-schemas.yaml#/Thing" } } } } }\n`,
  );
  expect(await readOperations(spec)).toHaveLength(1);
});
