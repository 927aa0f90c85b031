// listen's forward to a receiver is bounded as the sandbox's deliveries are: a receiver that
// answers endlessly, a byte at a time, or not after its head holds neither the forward nor
// listen's stop; one that redirects is not followed; one that breaks off is a failed forward.
import { startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Forwarder } from "../../src/listen/forward.js";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The whole answer's time, short here: the forwards below would otherwise never end. */
const forwarder = new Forwarder({ timeoutMs: 500 });
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  forwarder.close();
  await receiver.stop();
});

const EVENT = JSON.stringify({ id: "e1", topic: "Ping" });
const forward = (path: string) => forwarder.forward(new URL(`${receiver.url}${path}`), EVENT);

describe("Forwarder", () => {
  it("reads only a little of an endless answer, and counts its status", async () => {
    receiver.answerWith((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once("drain", pump);
      };
      pump();
    });
    expect(await forward("/endless")).toMatchObject({ status: 200 });
  });

  it("gives up on an answer sent a byte at a time, as on one that never comes", async () => {
    receiver.answerWith((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const drip = setInterval(() => response.write("x"), 20);
      response.on("close", () => clearInterval(drip));
    });
    expect(await forward("/drip")).toMatchObject({
      status: null,
      error: "no whole answer within 500 ms",
    });
  });

  it("gives up on a receiver that sends its head and stalls", async () => {
    receiver.answerWith((_, response) => {
      response.writeHead(200, { "content-length": "100" });
      response.flushHeaders();
    });
    expect(await forward("/stalled")).toMatchObject({ status: null });
  });

  it("does not follow a redirect to another host: its status is the answer", async () => {
    receiver.answerWith((_, response) =>
      response.writeHead(307, { location: "http://127.0.0.2:9/steal" }).end(),
    );
    const before = receiver.deliveries.length;
    expect(await forward("/moved")).toMatchObject({ status: 307 });
    expect(receiver.deliveries.slice(before).map((delivery) => delivery.path)).toEqual(["/moved"]);
  });

  it("counts an answer broken off as a failed forward", async () => {
    receiver.answerWith((_, response) => {
      response.writeHead(200, { "content-length": "100" });
      response.write("abc", () => response.destroy());
    });
    expect(await forward("/broken")).toMatchObject({ status: null });
  });
});
