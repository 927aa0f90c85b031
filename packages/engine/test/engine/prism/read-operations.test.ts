// A spec file is read by yaml before Prism: what is not an OpenAPI document in YAML or JSON is
// refused in a line naming the file, an alias bomb included, which Prism's reader would expand
// until the process ran out of time or memory.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
