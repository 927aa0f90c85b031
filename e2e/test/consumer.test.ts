// Packs the published packages, installs the tarballs into a fresh npm project and uses them
// there as a partner would: type-checked by TypeScript 5.9, 6 and 7, run as ESM and CommonJS on
// every Node line the packages' `engines` declare, bundled for the browser, and calling a real
// `payments-mock`.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadSpec } from "@org/payments-spec";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPublishedPackages } from "../../scripts/pack.ts";

const execFileAsync = promisify(execFile);
const require = createRequire(import.meta.url);
const fixtures = path.resolve(import.meta.dirname, "../fixtures");
const work = mkdtempSync(path.join(tmpdir(), "payments-consumer-"));
const app = path.join(work, "app");
const expectedCustomerId = (
  loadSpec().components.examples as Record<string, { value: { items: { id: string }[] } }>
).CustomerPage?.value.items[0]?.id;

// The Node lines each published package declares in `engines`, each one tested below.
const NODE_LINES = { "types and client": [22, 24, 26], mock: [24, 26] } as const;
const ENGINES = {
  "@org/payments-types": ">=22",
  "@org/payments-client": ">=22",
  "@org/payments-mock": ">=24.18",
};
// The compilers a partner may type-check with; 7 is the native one.
const TYPESCRIPTS = ["5.9.3", "6.0.3", "7.0.2"] as const;

const aside = path.join(work, "aside");
const runtime = (major: number) => path.join(aside, `node_modules/node${major}/bin/node`);
const compiler = (version: string) =>
  path.join(aside, `node_modules/typescript-${version}/bin/tsc`);
let mock: ChildProcess | undefined;
let mockUrl = "";

async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
) {
  try {
    const { stdout } = await execFileAsync(command, args, {
      ...options,
      env: { ...process.env, npm_config_update_notifier: "false", ...options.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${failure.stdout ?? ""}${failure.stderr ?? failure.message}`,
    );
  }
}

function npmInstall(cwd: string, specs: string[]) {
  return run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], { cwd });
}

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
  const packed = packPublishedPackages(path.join(work, "tarballs"));
  mkdirSync(app);
  cpSync(fixtures, app, { recursive: true });
  const dependencies = Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`]));
  writeFileSync(
    path.join(app, "package.json"),
    JSON.stringify({ name: "consumer-app", private: true, type: "module", dependencies }, null, 2),
  );
  // The other Node lines and compilers, side by side under aliases in one folder of their own:
  // one npm install, so that a loaded machine does not run seven at once.
  mkdirSync(aside);
  writeFileSync(path.join(aside, "package.json"), "{}");
  const tools = [
    ...NODE_LINES["types and client"].map((major) => `node${major}@npm:node@${major}`),
    ...TYPESCRIPTS.map((version) => `typescript-${version}@npm:typescript@${version}`),
  ];
  await Promise.all([npmInstall(app, []), npmInstall(aside, tools)]);
  mockUrl = await startInstalledMock();
}, 600_000);

afterAll(() => {
  mock?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

describe("a fresh npm project with the packed packages", () => {
  it("declares in engines exactly the Node lines tested here", () => {
    for (const [name, engines] of Object.entries(ENGINES)) {
      const manifest = require(path.join(app, "node_modules", name, "package.json"));
      expect(manifest.engines, name).toEqual({ node: engines });
    }
  });

  describe.each(TYPESCRIPTS)("with TypeScript %s", (version) => {
    it.each(["node16", "bundler"])(
      "type-checks an integration of all three packages under moduleResolution %s",
      async (mode) => {
        await expect(
          run(process.execPath, [compiler(version), "-p", `tsconfig.${mode}.json`], { cwd: app }),
        ).resolves.toBeDefined();
      },
    );
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
    "on Node %i, starts and stops the mock through require, and the client reads its examples",
    async (major) => {
      const stdout = await run(runtime(major), ["mock.cjs"], { cwd: app });
      const examples = loadSpec().components.examples as Record<
        string,
        { value: { items: unknown[] } }
      >;
      expect(JSON.parse(stdout)).toEqual({ documents: examples.DocumentPage?.value.items.length });
    },
  );

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
