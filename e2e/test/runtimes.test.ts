// The client's runtime example (`tour`, in the client's guide on the docs site, where the client
// README's "Runtimes" moved), from the packed packages, on every runtime of the guide's table:
// Node 22, 24 and 26, Bun, Deno, Cloudflare's workerd (through miniflare) and Chromium, each
// against a running sandbox and a server that never answers.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { launchChromium } from "@org/payments-testing";
import { build, transform } from "esbuild";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumer, NODE_LINES, RUNTIMES, run } from "./support/consumer.js";
import { CLIENT_GUIDE, examplesOf } from "./support/readme-examples.js";

const root = path.resolve(import.meta.dirname, "../..");
const { app, work, node, bin, bun, module } = consumer();
const folder = path.join(app, "runtimes");
const guide = readFileSync(path.join(root, CLIENT_GUIDE), "utf8");

/**
 * `tour`'s answer when the client did all four things on a runtime: created a customer, found it
 * in a list of more than one page (a page is one customer), timed out and aborted.
 */
function expectAllFour(answer: unknown): void {
  expect(answer).toEqual({
    found: true,
    listed: expect.any(Number),
    timeout: "PaymentsTimeoutError",
    abort: "AbortError",
  });
  expect((answer as { listed: number }).listed).toBeGreaterThan(1);
}

let sandbox: ChildProcess | undefined;
let sandboxUrl = "";
let silent: Server;
let silentUrl = "";

/** The guide's `tour` example, as JavaScript that imports the installed client. */
async function tourModule(): Promise<string> {
  const example = examplesOf(CLIENT_GUIDE, guide).find((e) => e.code.includes("function tour("));
  if (!example) throw new Error(`${CLIENT_GUIDE} has no example that defines tour()`);
  return (await transform(example.code, { loader: "ts", format: "esm" })).code;
}

/** Starts the installed `payments-mock --stateful` on a free port; resolves with its URL. */
function startSandbox(): Promise<string> {
  const child = spawn(
    path.join(app, "node_modules/.bin/payments-mock"),
    ["--stateful", "--port", "0", "--quiet"],
    { cwd: app, stdio: ["ignore", "pipe", "pipe"] },
  );
  sandbox = child;
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
      if (url) resolve(url);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}):\n${output}`)));
  });
}

/** A server that answers CORS preflights (so a page may call it) and nothing else, ever. */
async function startSilentServer(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "OPTIONS") return;
    response
      .writeHead(204, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "*",
        "access-control-allow-headers": "*",
      })
      .end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

/** The bundle of `tour` and `entry` (a Worker's or a page's), for a runtime without node_modules. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: folder, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

beforeAll(async () => {
  mkdirSync(folder);
  writeFileSync(path.join(folder, "tour.mjs"), await tourModule());
  // Node, Bun and Deno run it from node_modules; Deno reads its arguments its own way.
  writeFileSync(
    path.join(folder, "run.mjs"),
    [
      'import { tour } from "./tour.mjs";',
      "const [base, silent] = globalThis.Deno ? Deno.args : process.argv.slice(2);",
      "console.log(JSON.stringify(await tour(base, silent)));",
    ].join("\n"),
  );
  [sandboxUrl, silent] = await Promise.all([startSandbox(), startSilentServer()]);
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
}, 120_000);

afterAll(() => {
  sandbox?.kill("SIGTERM");
  silent?.closeAllConnections();
  silent?.close();
});

describe("the client guide's runtime example", () => {
  it("is run on each runtime the guide's table names, and only those", () => {
    const table = guide.slice(guide.indexOf("| Runtime "));
    const named = [...table.matchAll(/^\| (Node \d+|[\w ]+?) +\|/gm)].map(([, name]) => name);
    expect(named.slice(1)).toEqual([
      ...NODE_LINES["types and client"].map((major) => `Node ${major}`),
      "Bun",
      "Deno",
      "Cloudflare workerd",
      "Chromium",
    ]);
  });

  it.each(NODE_LINES["types and client"])("runs on Node %i", async (major) => {
    const stdout = await run(node(major), ["run.mjs", sandboxUrl, silentUrl], { cwd: folder });
    expectAllFour(JSON.parse(stdout));
  });

  it(`runs on Bun ${RUNTIMES.bun}`, async () => {
    const stdout = await run(bun(), ["run.mjs", sandboxUrl, silentUrl], { cwd: folder });
    expectAllFour(JSON.parse(stdout));
  });

  it(`runs on Deno ${RUNTIMES.deno}, with network access only`, async () => {
    const args = ["run", "--allow-net=127.0.0.1", "--allow-read", "--no-lock", "run.mjs"];
    const stdout = await run(bin("deno"), [...args, sandboxUrl, silentUrl], {
      cwd: folder,
      // Deno's cache in the test's own folder, removed with it.
      env: { DENO_DIR: path.join(work, "deno-cache"), NO_COLOR: "1" },
    });
    expectAllFour(JSON.parse(stdout));
  });

  it(`runs in a Cloudflare Worker on workerd (miniflare ${RUNTIMES.miniflare})`, async () => {
    const script = await bundle(
      [
        'import { tour } from "./tour.mjs";',
        "export default {",
        "  async fetch(request) {",
        "    const url = new URL(request.url);",
        '    const found = await tour(url.searchParams.get("base"), url.searchParams.get("silent"))',
        "      .catch((error) => ({ error: String(error) }));",
        "    return Response.json(found);",
        "  },",
        "};",
      ].join("\n"),
    );
    const { Miniflare } = await import(module("miniflare"));
    const worker = new Miniflare({ modules: true, script, compatibilityDate: "2026-07-30" });
    try {
      const query = new URLSearchParams({ base: sandboxUrl, silent: silentUrl });
      const answer = await worker.dispatchFetch(`http://tour.example/?${query}`);
      expectAllFour(await answer.json());
    } finally {
      await worker.dispose();
    }
  });

  describe("in Chromium, from a page on another origin", () => {
    let page: Server;
    let browser: Awaited<ReturnType<typeof launchChromium<BrowserContext>>> | undefined;

    beforeAll(async () => {
      const script = await bundle('import { tour } from "./tour.mjs";\nglobalThis.tour = tour;');
      page = createServer((request, response) => {
        if (request.url === "/tour.js") {
          response.writeHead(200, { "content-type": "text/javascript" }).end(script);
        } else {
          response
            .writeHead(200, { "content-type": "text/html" })
            .end(
              '<!doctype html><title>tour</title><script type="module" src="/tour.js"></script>',
            );
        }
      });
      page.listen(0, "127.0.0.1");
      await once(page, "listening");
      browser = await launchChromium(chromium);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      page?.closeAllConnections();
      page?.close();
    });

    it("runs, calling the sandbox with CORS", async () => {
      const tab = browser?.context.pages()[0] ?? (await browser?.context.newPage());
      if (!tab) throw new Error("Chromium opened no page");
      await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => "tour" in globalThis);
      const found = await tab.evaluate(
        ([base, silent]) =>
          (
            globalThis as unknown as {
              tour: (base: string, silent: string) => Promise<unknown>;
            }
          )
            .tour(base, silent)
            .catch((error: unknown) => ({ error: String(error) })),
        [sandboxUrl, silentUrl] as const,
      );
      expectAllFour(found);
    });
  });
});
