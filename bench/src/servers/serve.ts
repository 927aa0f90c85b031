// A server in its own process, so that load generators and clients do not share its event loop.
// `node serve.ts plain|mock|sandbox`: starts the server, times start → first answer, and reports both
// over IPC. It stays up until the parent kills it or goes away.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { API_KEY, createdCustomer, customerPage } from "./fixtures.ts";

type Started = { url: string; stop: () => unknown };

/** The baseline: node:http answering a fixed JSON page, 201 with a fixed body for a POST. */
async function startPlain() {
  const page = JSON.stringify(customerPage);
  const created = JSON.stringify(createdCustomer);
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const isPost = request.method === "POST";
      response.writeHead(isPost ? 201 : 200, { "content-type": "application/json" });
      response.end(isPost ? created : page);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** Each kind's start function, its module already imported: loading code is not starting. */
const starters: Record<string, () => Promise<() => Promise<Started>>> = {
  plain: async () => startPlain,
  mock: async () => {
    const { startMock } = await import("@org/payments-mock");
    return () => startMock({ port: 0 });
  },
  sandbox: async () => {
    const { startMock } = await import("@org/payments-mock");
    return () => startMock({ port: 0, stateful: true });
  },
};

const load = starters[process.argv[2] ?? ""];
if (!load || !process.send) throw new Error("usage: fork serve.ts plain|mock|sandbox");
const start = await load();

// fetch and node:http load and compile their code on first use: warm both up so that only the
// server's own start is timed.
const warmUp = await startPlain();
await (await fetch(warmUp.url)).text();
warmUp.stop();
const started = performance.now();
const server = await start();
const answer = await fetch(`${server.url}/customers`, { headers: { "X-API-Key": API_KEY } });
await answer.text();
const startToFirstAnswerMs = performance.now() - started;
if (!answer.ok) throw new Error(`first answer was ${answer.status}, not 2xx`);

process.send({ url: server.url, startToFirstAnswerMs });
process.on("disconnect", () => process.exit(0));
