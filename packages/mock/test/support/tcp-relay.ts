// A TCP relay to a port, inside a test, whose connections the test can cut: a network that drops.
import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** Relays connections to `port`; listens on `listenPort` (default: a free one). */
export async function startTcpRelay(port: number, listenPort = 0) {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  server.listen(listenPort, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** How many connections (either side's socket) are open. */
    open: () => sockets.size,
    /** Cuts every open connection; resolves to how many there were. */
    cut(): number {
      const open = sockets.size;
      for (const socket of sockets) socket.destroy();
      return open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
