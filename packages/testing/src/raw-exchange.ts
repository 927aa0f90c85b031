// HTTP as bytes on a socket, for what a client library would not send: a request without Host,
// a body short of its length, a half-closed connection.
import { connect, type Socket } from "node:net";

/**
 * Writes `request` on a new connection to `url`'s host and port, then runs `then` (a second write,
 * `socket.end()` to half-close, …), and resolves with everything the server sent once it closes
 * the connection, or once the connection fails.
 */
export function rawExchange(
  url: string,
  request: string,
  then?: (socket: Socket) => void,
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = "";
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(request);
      then?.(socket);
    });
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("close", () => resolve(received));
    socket.on("error", () => resolve(received));
  });
}
