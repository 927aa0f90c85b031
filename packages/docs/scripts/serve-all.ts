// `npm start` serves what has been built, in this one process: the mock API as its stateful
// sandbox (packages/mock's startMock; data in memory) and the docs site (packages/docs' static
// server). One process, so Ctrl-C stops both
// at once and exits 0, with no package manager in between to report the stop as a failure.
// With --watch (`npm run dev`), the mock reloads and the docs rebuild when the spec changes.
// Ports: MOCK_PORT (default 4010), DOCS_PORT (4020); interface: HOST (127.0.0.1).
import { existsSync } from "node:fs";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { startDocsDev, startStaticServer } from "../src/index.ts";

const docsRoot = path.join(import.meta.dirname, "../dist");
const host = process.env.HOST || "127.0.0.1";
const watch = process.argv.includes("--watch");

function fail(message: string): never {
  console.error(`\u2716 ${message}`);
  process.exit(1);
}

function portFrom(name: string, fallback: string) {
  const value = process.env[name] || fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    fail(`${name} must be a port number from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

const built = "nothing built to serve yet: run `npm start` (it builds first) or `npm run build`";
if (!existsSync(path.join(docsRoot, "index.html"))) fail(built);
const { startMock } = await import("@org/payments-mock").catch(() => fail(built));
const startDocs = watch ? startDocsDev : startStaticServer;

const mock = await startMock({
  host,
  port: portFrom("MOCK_PORT", "4010"),
  stateful: true,
  ...(watch && { watch, spec: specPath }),
  log: (line: string) => console.log(`  mock ${line}`),
}).catch((error: Error) =>
  fail(`cannot start the mock API: ${error.message.replace(/--port/, "MOCK_PORT")}`),
);
// The docs forward /sandbox/… to the sandbox, so that the console calls the page's own origin,
// and their samples show the sandbox's URL.
const docs = await startDocs({
  root: docsRoot,
  host,
  port: portFrom("DOCS_PORT", "4020"),
  sandbox: mock.url,
}).catch((error: Error) =>
  fail(`cannot serve the docs: ${error.message} (choose another port with DOCS_PORT)`),
);

console.log(
  `\u25b8 mock API: ${mock.url}/  (a stateful sandbox; every request needs an X-API-Key header)`,
);
console.log(
  `\u25b8 API docs: ${docs.url}  (a console on every operation sends to the sandbox)${watch ? "; both follow edits of the spec" : ""}`,
);
console.log(
  `\u25b8 test mode: ${docs.url}guides/  (guides run by CI) and ${docs.url}test-mode.html  (the /_sandbox/ routes, each with a console)`,
);
console.log("\u25b8 press Ctrl-C to stop");

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    Promise.all([mock.stop(), docs.close()]).then(() => {
      console.log("\u25b8 stopped");
      process.exit(0);
    });
  });
}
