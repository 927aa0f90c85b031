// The mock's baseline: a plain node:http server, in its own process, that answers each of the
// bench's requests with exactly the bytes the mock answers it with (status, headers, body).
// `node same-bytes.ts <mock-url> <requests as JSON>`: asks the mock once for each answer, then
// serves them and reports its URL over IPC. It stays up until the parent kills it or goes away.
import { once } from "node:events";
import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { BenchRequest } from "./requests.ts";

/** What node:http writes itself, as it does for the mock: left to it here too. */
const WRITTEN_BY_NODE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
/** The mock's keep-alive timeout, which node:http states in its `Keep-Alive` header. */
const KEEP_ALIVE_MS = 5_000;

type Answer = { status: number; headers: [string, string][]; body: Buffer };

function answerOf(url: string, sent: BenchRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${sent.path}`, { method: sent.method, headers: sent.headers });
    outgoing.on("error", reject);
    outgoing.on("response", async (incoming: IncomingMessage) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const headers: [string, string][] = [];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] ?? "";
        if (!WRITTEN_BY_NODE.has(name.toLowerCase())) {
          headers.push([name, incoming.rawHeaders[i + 1] ?? ""]);
        }
      }
      resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
    });
    outgoing.end(sent.body);
  });
}

/** Tells the bench's requests apart: two POSTs to one path differ in their bodies' lengths. */
function keyOf(method: string | undefined, target: string | undefined, length: string | undefined) {
  return `${method} ${target} ${length ?? ""}`;
}

const [mockUrl, requests] = process.argv.slice(2);
if (!mockUrl || !requests || !process.send) {
  throw new Error("usage: fork same-bytes.ts <mock-url> <requests as JSON>");
}

const answers = new Map<string, Answer>();
for (const sent of JSON.parse(requests) as BenchRequest[]) {
  const length = sent.body === undefined ? undefined : String(Buffer.byteLength(sent.body));
  const key = keyOf(sent.method, sent.path, length);
  if (answers.has(key)) throw new Error(`two of the bench's requests are both ${key}`);
  answers.set(key, await answerOf(mockUrl, sent));
}

const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (incoming, response) => {
  incoming.resume();
  incoming.on("end", () => {
    const answer = answers.get(
      keyOf(incoming.method, incoming.url, incoming.headers["content-length"]),
    );
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    // The same calls as the mock's, so that node:http frames the body the same way.
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
process.send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on("disconnect", () => process.exit(0));
