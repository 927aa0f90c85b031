// Every ```ts block of every README, and of the client's guide on the docs site (where the client
// README's examples beyond its quick start are), is real code: each example is type-checked as a
// file of its own against the built packages, and each example that creates a client runs against
// the mock.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { type RunningMock, startMock } from "@org/payments-mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIENT_GUIDE,
  examplesOf,
  findReadmes,
  type ReadmeExample,
} from "./support/readme-examples.js";

const execFileAsync = promisify(execFile);
// TypeScript 7 exports no `bin/tsc` subpath: its package.json locates the command.
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
  "bin/tsc",
);
const root = path.resolve(import.meta.dirname, "../..");
// Inside e2e/, so that the examples' imports resolve to this workspace's built packages; removed
// after the run.
const work = mkdtempSync(path.resolve(import.meta.dirname, "../.readme-examples-"));
const examples = [...findReadmes(root), CLIENT_GUIDE].flatMap((readme) =>
  examplesOf(readme, readFileSync(path.join(root, readme), "utf8")),
);
const fileOf = (example: ReadmeExample) =>
  path.join(work, `${example.readme.replace(/[^a-z0-9]+/gi, "-")}-L${example.line}.ts`);

/** tsc's diagnostics, each placed at the README line its example's line came from. */
function readmePlaces(output: string, files: string[]): string[] {
  const problems: string[] = [];
  for (const line of output.split("\n")) {
    const diagnostic = /^(.+?)\((\d+),\d+\): (error .*)$/.exec(line);
    if (!diagnostic) {
      if (line.trim() !== "") problems.push(line.trim());
      continue;
    }
    const [, file = "", row = "0", message] = diagnostic;
    const example = examples[files.indexOf(path.resolve(work, file))];
    const place = example?.lines[Number(row) - 1];
    problems.push(place ? `${place.readme}:${place.line}: ${message}` : line);
  }
  return problems;
}

// An example written as a vitest test runs under vitest in the reader's project, not here.
const talksToServer = (example: ReadmeExample) =>
  example.code.includes("createPaymentsClient(") && !/from "vitest"/.test(example.code);

describe("finding README examples", () => {
  it("joins a block that starts with // continued to the example before it", () => {
    const text = [
      "```ts",
      "const a = 1;",
      "```",
      "text",
      "  ```ts",
      "  // continued",
      "  console.log(a);",
      "  ```",
      "```ts",
      "const b = 2;",
      "```",
    ].join("\n");
    const found = examplesOf("X.md", text);
    expect(found.map((e) => e.code)).toEqual([
      "const a = 1;\n// continued\nconsole.log(a);",
      "const b = 2;",
    ]);
    expect(found[0]?.lines.map((l) => l.line)).toEqual([2, 6, 7]);
  });

  it("refuses a block that continues nothing, or is never closed, naming the README line", () => {
    expect(() => examplesOf("X.md", "```ts\n// continued\n```")).toThrow(/^X\.md:1: /);
    expect(() => examplesOf("X.md", "a\n```ts\nconst a = 1;")).toThrow(/^X\.md:2: .*never closed/);
  });

  it("finds the examples of the package READMEs and of the client's guide", () => {
    const readmes = new Set(examples.map((e) => e.readme));
    for (const readme of ["packages/client/README.md", "packages/types/README.md", CLIENT_GUIDE]) {
      expect(readmes).toContain(readme);
    }
  });

  it("reads a block with flags (```ts module) as an example too", () => {
    const found = examplesOf("X.md", "```ts module\nexport const a = 1;\n```\n```tsx\n<a />\n```");
    expect(found.map((e) => e.code)).toEqual(["export const a = 1;"]);
  });
});

describe("the client README's quick start", () => {
  const readme = "packages/client/README.md";
  let sandbox: RunningMock;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startMock({ stateful: true });
    dir = mkdtempSync(path.resolve(import.meta.dirname, "../.readme-quick-start-"));
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs as printed against the sandbox, with no PAYMENTS_API_KEY set", async () => {
    // Its section alone: the examples after it continue it, and a reader copies it first.
    const text = readFileSync(path.join(root, readme), "utf8");
    const section = text.slice(text.indexOf("## Quick start"));
    const [example] = examplesOf(readme, section.slice(0, section.indexOf("\n## ", 1)));
    if (example === undefined) throw new Error(`${readme} has no example in its quick start`);
    const script = path.join(dir, "quick-start.ts");
    writeFileSync(script, `${example.code}\n`);
    const { PAYMENTS_API_KEY: _, ...env } = process.env;
    const failure = await execFileAsync(process.execPath, [script], {
      cwd: dir,
      env: { ...env, PAYMENTS_BASE_URL: sandbox.url },
    }).then(
      () => undefined,
      (error: { stderr?: string; message: string }) => error.stderr || error.message,
    );
    expect(failure).toBeUndefined();
  });
});

describe("README examples", () => {
  beforeAll(() => {
    for (const example of examples) writeFileSync(fileOf(example), `${example.code}\n`);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("type-check with TypeScript 7, each as a file of its own, against the built packages", async () => {
    const files = examples.map(fileOf);
    const project = path.join(work, "tsconfig.json");
    // The repository's options (tsconfig.base.json has comments: TypeScript reads it, not JSON).
    const compilerOptions = {
      noEmit: true,
      declaration: false,
      declarationMap: false,
      types: ["node"],
      moduleDetection: "force",
    };
    const base = path.join(root, "tsconfig.base.json");
    writeFileSync(project, JSON.stringify({ extends: base, compilerOptions, files }, null, 2));
    const output = await execFileAsync(
      process.execPath,
      [tsc, "-p", project, "--pretty", "false"],
      {
        cwd: work,
      },
    ).then(
      () => "",
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(readmePlaces(output, files)).toEqual([]);
  });

  describe("that talk to a server run against the mock", () => {
    let mock: RunningMock;
    beforeAll(async () => {
      mock = await startMock();
    });
    afterAll(() => mock?.stop());

    it.each(examples.filter(talksToServer).map((e) => [`${e.readme}:${e.line}`, e] as const))(
      "%s",
      async (_, example) => {
        // Node runs the example's TypeScript as it is, by stripping its types.
        const script = fileOf(example);
        const env = {
          ...process.env,
          PAYMENTS_API_KEY: "readme-example-key",
          PAYMENTS_BASE_URL: mock.url,
        };
        const failure = await execFileAsync(process.execPath, [script], { cwd: work, env }).then(
          () => undefined,
          (error: { stderr?: string; message: string }) => error.stderr || error.message,
        );
        expect(failure).toBeUndefined();
      },
    );
  });
});
