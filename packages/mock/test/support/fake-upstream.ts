// A fake upstream for the proxy tests: an in-process server on 127.0.0.1 that records what it
// receives and answers as the test says, by default by relaying the mock's answer.
import { once } from "node:events";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** Resolves when the proxy closes this request's connection or aborts it. */
  closed: Promise<void>;
}

type Answer = (
  received: Received,
  response: ServerResponse,
  incoming: IncomingMessage,
) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** How requests are answered from now on. */
  answer: Answer;
  stop(): Promise<void>;
}

export async function startFakeUpstream(mockUrl: string): Promise<FakeUpstream> {
  const relay: Answer = (received, response) => relayTo(mockUrl, received, response);
  const fake: FakeUpstream = {
    url: "",
    received: [],
    answer: relay,
    stop: async () => {},
  };
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const received: Received = {
      method: incoming.method ?? "",
      url: incoming.url ?? "",
      rawHeaders: incoming.rawHeaders,
      headers: incoming.headers,
      body: Buffer.concat(chunks),
      closed: once(response, "close").then(() => {}),
    };
    fake.received.push(received);
    await fake.answer(received, response, incoming);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return fake;
}

/** Answers with what the mock answers the same request, byte for byte. */
export function relayTo(
  mockUrl: string,
  received: Received,
  response: ServerResponse,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { ...received.headers };
    delete headers.host;
    delete headers.connection;
    const forwarded = request(
      `${mockUrl}${received.url}`,
      { method: received.method, headers },
      (answer) => {
        const { connection: _, "keep-alive": __, ...rest } = answer.headers;
        response.writeHead(answer.statusCode ?? 500, rest);
        answer.pipe(response).once("finish", resolve);
      },
    );
    forwarded.once("error", reject);
    forwarded.end(received.body);
  });
}
