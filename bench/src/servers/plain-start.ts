// The start-up baseline: the smallest node:http server process that answers `GET /customers`.
// `node plain-start.ts --port <port>`.
import { createServer } from "node:http";

const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
createServer((incoming, response) => {
  incoming.resume();
  response.writeHead(200, { "content-type": "application/json" }).end("{}");
}).listen(port, "127.0.0.1");
