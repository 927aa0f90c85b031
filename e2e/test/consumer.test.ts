// Packs the published packages, installs the tarballs into a fresh npm project and uses them
// there as a partner would: type-checked, run as ESM and CommonJS on Node 20, 22 and 24,
// bundled for the browser, and calling a real `payments-mock`.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadSpec } from "@org/payments-spec";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPublishedPackages } from "../../scripts/pack.mjs";

const execFileAsync = promisify(execFile);
const require = createRequire(import.meta.url);
const fixtures = path.resolve(import.meta.dirname, "../fixtures");
const work = mkdtempSync(path.join(tmpdir(), "payments-consumer-"));
const app = path.join(work, "app");
const expectedCustomerId = (
  loadSpec().components.examples as Record<string, { value: { items: { id: string }[] } }>
).CustomerPage?.value.items[0]?.id;

const runtimes: Record<string, string> = { "Node 20": process.execPath };
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
  const newerNodes = [22, 24].map(async (major) => {
    const dir = path.join(work, `node${major}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), "{}");
    await npmInstall(dir, [`node@${major}`]);
    runtimes[`Node ${major}`] = path.join(dir, "node_modules/.bin/node");
  });
  await Promise.all([npmInstall(app, []), ...newerNodes]);
  mockUrl = await startInstalledMock();
}, 600_000);

afterAll(() => {
  mock?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

describe("a fresh npm project with the packed packages", () => {
  it.each(["node16", "bundler"])("type-checks under moduleResolution %s", async (mode) => {
    const tsc = require.resolve("typescript/bin/tsc");
    await expect(
      run(process.execPath, [tsc, "-p", `tsconfig.${mode}.json`], { cwd: app }),
    ).resolves.toBeDefined();
  });

  it("fails the type check when a request body breaks the spec", async () => {
    const misuse = [
      'import { createPaymentsClient } from "@org/payments-client";',
      'const client = createPaymentsClient({ apiKey: "k", baseUrl: "http://127.0.0.1:4010" });',
      'client.POST("/customers", { body: { customer_type: "Robot", email: "a@example.com" } });',
    ];
    writeFileSync(path.join(app, "misuse.ts"), `${misuse.join("\n")}\n`);
    const tsc = require.resolve("typescript/bin/tsc");
    const args = [
      tsc,
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

  it.each([
    ["Node 20", "call.mjs"],
    ["Node 20", "call.cjs"],
    ["Node 22", "call.mjs"],
    ["Node 22", "call.cjs"],
    ["Node 24", "call.mjs"],
    ["Node 24", "call.cjs"],
  ])("on %s, %s calls the installed payments-mock", async (runtime, script) => {
    const stdout = await run(runtimes[runtime] as string, [script], {
      cwd: app,
      env: { MOCK_URL: mockUrl },
    });
    expect(JSON.parse(stdout)).toEqual({ id: expectedCustomerId, topics: 11 });
  });

  it("starts and stops the mock through require, and the client reads its examples", async () => {
    const stdout = await run(process.execPath, ["mock.cjs"], { cwd: app });
    const examples = loadSpec().components.examples as Record<
      string,
      { value: { items: unknown[] } }
    >;
    expect(JSON.parse(stdout)).toEqual({ documents: examples.DocumentPage?.value.items.length });
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
