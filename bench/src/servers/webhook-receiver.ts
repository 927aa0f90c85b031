// The bench's webhook receiver, in its own process so that deliveries do not share the load
// generator's event loop. `node webhook-receiver.ts`: answers every POST with 204, reports its URL
// over IPC, and answers the message "count" with the number of deliveries received so far. It
// stays up until the parent kills it or goes away.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

if (!process.send) throw new Error("usage: fork webhook-receiver.ts");
const send = process.send.bind(process);

let deliveries = 0;
const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on("end", () => {
    if (incoming.method === "POST") deliveries++;
    response.writeHead(204).end();
  });
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
send({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
process.on("message", (message) => {
  if (message === "count") send({ deliveries });
});
process.on("disconnect", () => process.exit(0));
