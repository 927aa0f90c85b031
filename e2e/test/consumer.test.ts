// Uses the packed packages in a fresh npm project (test/support/consumer-setup.ts) as a partner
// would: type-checked by TypeScript 5.9, 6 and 7 (also each package README's examples, under the
// tsconfig.json that README shows, the client's guide's with the client README's), run as ESM and CommonJS on every Node line the packages'
// `engines` declare, bundled for the browser, and calling a real `payments-mock`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { loadSpec } from "@org/payments-spec";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuildReport,
  consumer,
  ENGINES,
  NODE_LINES,
  run,
  TYPESCRIPTS,
  tsconfigOf,
  typeCheckProjects,
} from "./support/consumer.js";
import { CLIENT_GUIDE, examplesOf } from "./support/readme-examples.js";

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, "../..");
const { app, node: runtime, tsc: compiler } = consumer();
const expectedCustomerId = (
  loadSpec().components.examples as Record<string, { value: { items: { id: string }[] } }>
).CustomerPage?.value.items[0]?.id;

let mock: ChildProcess | undefined;
let mockUrl = "";

/** Starts the installed `payments-mock` CLI on a free port and resolves with the URL it prints. */
function startInstalledMock(): Promise<string> {
  const child = spawn(path.join(app, "node_modules/.bin/payments-mock"), ["--port", "0"], {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
  });
  mock = child;
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      if (url) resolve(url);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) =>
      reject(new Error(`payments-mock exited (${code}) before listening:\n${output}`)),
    );
  });
}

beforeAll(async () => {
  mockUrl = await startInstalledMock();
}, 120_000);

afterAll(() => {
  mock?.kill("SIGTERM");
});

const PACKAGE_DIRS = {
  "@org/payments-types": "types",
  "@org/payments-client": "client",
  "@org/payments-mock": "mock",
};
const readmeOf = (dir: string) => readFileSync(path.join(root, dir, "README.md"), "utf8");
/** The guides whose examples a package README's tsconfig.json is shown for: the client's. */
const GUIDES_OF: Partial<Record<string, string>> = { client: CLIENT_GUIDE };

/** The `tsconfig.json` a README shows: its ```json block with `compilerOptions`. */
function shownTsconfig(readme: string, text: string): unknown {
  for (const [, block = ""] of text.matchAll(/^```json\n([\s\S]*?)^```$/gm)) {
    if (block.includes('"compilerOptions"')) return JSON.parse(block);
  }
  throw new Error(`${readme} shows no tsconfig.json (a \`\`\`json block with compilerOptions)`);
}

/**
 * Each package README's examples (and its guide's, for the client) in a folder with the
 * tsconfig.json that README shows: one folder per distinct tsconfig, so that READMEs that show the
 * same one are checked together; a set of folders for each compiler `version`, as its build leaves
 * its record in them.
 */
function readmeProjects(version: string): string[] {
  const folders = new Map<string, string>();
  for (const dir of Object.values(PACKAGE_DIRS)) {
    const readme = `packages/${dir}/README.md`;
    const text = readmeOf(`packages/${dir}`);
    const tsconfig = JSON.stringify(shownTsconfig(readme, text), null, 2);
    let folder = folders.get(tsconfig);
    if (folder === undefined) {
      folder = path.join(app, `readme-project-${version}-${folders.size}`);
      mkdirSync(folder);
      writeFileSync(path.join(folder, "tsconfig.json"), tsconfig);
      folders.set(tsconfig, folder);
    }
    for (const example of examplesOf(readme, text)) {
      writeFileSync(path.join(folder, `${dir}-L${example.line}.ts`), `${example.code}\n`);
    }
    const guide = GUIDES_OF[dir];
    if (guide === undefined) continue;
    for (const example of examplesOf(guide, readFileSync(path.join(root, guide), "utf8"))) {
      writeFileSync(path.join(folder, `${dir}-guide-L${example.line}.ts`), `${example.code}\n`);
    }
  }
  return [...folders.values()];
}

describe("one Node story", () => {
  const minimum = (range: string) => range.replace(/^>=/, "");
  /** The cells of the row for `name` in the root README's "Which Node" table. */
  const rootRow = (name: string) =>
    readmeOf(".")
      .split("## Which Node")[1]
      ?.split("\n")
      .find((line) => line.startsWith(`| ${name}`))
      ?.split("|")
      .map((cell) => cell.trim());

  it.each(Object.entries(ENGINES))(
    "%s: engines, its README and the root README's table name the same Node",
    (name, engines) => {
      const manifest = require(path.join(app, "node_modules", name, "package.json"));
      expect(manifest.engines).toEqual({ node: engines });
      const readme = readmeOf(`packages/${PACKAGE_DIRS[name as keyof typeof PACKAGE_DIRS]}`);
      expect(readme).toContain(`Node ${minimum(engines)} or later`);
      expect(rootRow(`\`${name}\``)?.[2]).toBe(`${minimum(engines)} or later`);
    },
  );

  it("the root README's table names the Node lines tested here, and the repository's own Node", () => {
    const lines = (majors: readonly number[]) =>
      `Node ${majors.slice(0, -1).join(", ")} and ${majors.at(-1)}`;
    for (const name of ["`@org/payments-types`", "`@org/payments-client`"]) {
      expect(rootRow(name)?.[3]).toMatch(
        new RegExp(`^${lines(NODE_LINES["types and client"])}\\b`),
      );
    }
    expect(rootRow("`@org/payments-mock`")?.[3]).toMatch(
      new RegExp(`^${lines(NODE_LINES.mock)}\\b`),
    );
    const own = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).engines.node;
    expect(rootRow("Working in this repository")?.[2]).toBe(`${minimum(own)} or later`);
  });
});

describe("a fresh npm project with the packed packages", () => {
  // Each compiler checks every project in one `tsc --build` (typeCheckProjects), run once here;
  // each test reads what it said about its project. The integrations check every declaration file
  // (`skipLibCheck: false`: the packages' and their dependencies') but not the compiler's own
  // `lib.*.d.ts` (`skipDefaultLibCheck`): checking lib.dom.d.ts again cost a third of each check,
  // and tells nothing of the packages.
  describe.each(TYPESCRIPTS)("with TypeScript %s", (version) => {
    const integration = (mode: string) => `tsconfig.${mode}.json`;
    let readmes: string[] = [];
    let build: BuildReport;
    beforeAll(async () => {
      readmes = readmeProjects(version);
      build = await typeCheckProjects(
        compiler(version),
        [integration("node16"), integration("bundler"), ...readmes],
        app,
      );
      // Whatever failed is told by a project's test; a failure no project explains is told here.
      const explained = [...build.projects.values()].some((lines) => lines.length > 0);
      if (build.general.length > 0 || (build.exitCode !== 0 && !explained)) {
        throw new Error(
          `tsc --build of TypeScript ${version} failed (exit code ${build.exitCode}):\n${build.general.join("\n")}`,
        );
      }
    }, 300_000);

    /** The diagnostics of `project`; a project the build did not check fails the test. */
    const diagnosticsOf = (project: string) => {
      const lines = build.projects.get(tsconfigOf(project, app));
      if (lines === undefined) throw new Error(`tsc --build did not check ${project}`);
      return lines;
    };

    it.each(["node16", "bundler"])(
      "type-checks an integration of all three packages under moduleResolution %s",
      (mode) => {
        expect(diagnosticsOf(integration(mode))).toEqual([]);
      },
    );

    it("type-checks each package README's examples, under the tsconfig.json the README shows", () => {
      expect(readmes.length).toBeGreaterThan(0);
      for (const project of readmes) expect(diagnosticsOf(project), project).toEqual([]);
    });
  });

  it("fails the type check when a request body breaks the spec", async () => {
    const misuse = [
      'import { createPaymentsClient } from "@org/payments-client";',
      'const client = createPaymentsClient({ apiKey: "k", baseUrl: "http://127.0.0.1:4010" });',
      'client.POST("/customers", { body: { customer_type: "Robot", email: "a@example.com" } });',
    ];
    writeFileSync(path.join(app, "misuse.ts"), `${misuse.join("\n")}\n`);
    const args = [
      compiler("7.0.2"),
      "--noEmit",
      "--strict",
      "--module",
      "node16",
      "--moduleResolution",
      "node16",
      "misuse.ts",
    ];
    await expect(run(process.execPath, args, { cwd: app })).rejects.toThrow(
      /misuse\.ts\(3,.*"Robot"/,
    );
  });

  it.each(
    NODE_LINES["types and client"].flatMap((major) => [
      [major, "call.mjs"],
      [major, "call.cjs"],
    ]),
  )("on Node %i, %s calls the installed payments-mock", async (major, script) => {
    const stdout = await run(runtime(major), [script], {
      cwd: app,
      env: { MOCK_URL: mockUrl },
    });
    expect(JSON.parse(stdout)).toEqual({ id: expectedCustomerId, topics: 11 });
  });

  it.each(NODE_LINES.mock)(
    "on Node %i, starts and stops the mock and the stateful sandbox through require; the client reads its examples and the controls advance the clock",
    async (major) => {
      const stdout = await run(runtime(major), ["mock.cjs"], { cwd: app });
      const examples = loadSpec().components.examples as Record<
        string,
        { value: { items: unknown[] } }
      >;
      expect(JSON.parse(stdout)).toEqual({
        documents: examples.DocumentPage?.value.items.length,
        advancedSeconds: 3600,
      });
    },
  );

  it("the installed payments-mock --version prints the installed package's version", async () => {
    const installed = path.join(app, "node_modules/@org/payments-mock");
    const { version } = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    const bin = path.join(installed, "bin/payments-mock.mjs");
    const stdout = await run(runtime(NODE_LINES.mock[0]), [bin, "--version"], { cwd: app });
    expect(stdout.trim()).toBe(version);
  });

  it("on a Node older than the mock's, payments-mock says which Node it needs", async () => {
    const bin = path.join(app, "node_modules/@org/payments-mock/bin/payments-mock.mjs");
    await expect(run(runtime(22), [bin, "--port", "0"], { cwd: app })).rejects.toThrow(
      /payments-mock needs Node 24\.18 or later; this is Node 22\./,
    );
  });

  it("bundles for the browser with esbuild, without Node built-ins", async () => {
    const result = await build({
      absWorkingDir: app,
      entryPoints: ["browser.ts"],
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]?.text ?? "";
    expect(code).toContain("X-API-Key");
    expect(code).not.toMatch(/\bnode:|require\("/);
  });
});
