// A client that half-closes its side right after its request (FIN at once, as `socket.end()` after
// the write does) still gets the answer, even one the sandbox gives after a store's round trip; the
// stateless mock answers it too. On each store.
import { API_KEY, rawExchange } from "@org/payments-testing";
import { expect, it } from "vitest";
import { startSandbox } from "../support/sandbox.js";

/** Sends a raw request, ends the socket's writing side at once, and reads until the server closes. */
const halfClosed = (url: string, request: string) =>
  rawExchange(url, request, (socket) => socket.end());

it("answers a request whose client half-closed at once, a create and a read alike", async () => {
  const sandbox = await startSandbox();
  try {
    const body = JSON.stringify({ customer_type: "Person", email: "fin@example.com" });
    for (let attempt = 0; attempt < 5; attempt++) {
      const created = await halfClosed(
        sandbox.url,
        `POST /customers HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\nIDEMPOTENCY-KEY: ${crypto.randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      expect(created).toMatch(/^HTTP\/1\.1 200 /);
      expect(created).toContain('"email":"fin@example.com"');
      const read = await halfClosed(
        sandbox.url,
        `GET /_sandbox/clock HTTP/1.1\r\nHost: x\r\nX-API-Key: ${API_KEY}\r\n\r\n`,
      );
      expect(read).toMatch(/^HTTP\/1\.1 200 /);
    }
  } finally {
    await sandbox.stop();
  }
});
