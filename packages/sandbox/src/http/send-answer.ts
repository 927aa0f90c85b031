// A sandbox answer on the wire, and the sandbox's failures as problems.
import type { ServerResponse } from "node:http";
import {
  PlainReply,
  PROBLEM_CONTENT_TYPE,
  type Problem,
  problem,
  type Reply,
} from "@org/payments-engine";
import { type Answer, bodyText, type StreamedAnswer } from "../answers/answer.js";
import { StoreFullError } from "../store/store.js";

/** What was sent, for the request log: a status, or why none was. */
export type Sent = { status: number | string; mismatch: string };

/**
 * A sandbox answer: JSON, or a problem in the mock's format when it is an error; or, for a test-mode
 * fault's lost answer, the connection closed with nothing sent.
 */
export function sendAnswer(response: Reply, answer: Answer): Sent {
  if (answer.drop) {
    if (response instanceof PlainReply) response.destroy();
    else (response as ServerResponse).socket?.destroy();
    return { status: "closed with no answer (a test-mode fault)", mismatch: "" };
  }
  if (answer.stream !== undefined) {
    if (response instanceof PlainReply)
      return sendPlainStream(response, answer.stream, answer.headers);
    return sendStream(response as ServerResponse, answer.stream, answer.headers);
  }
  const contentType = answer.status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json";
  response
    .writeHead(answer.status, {
      ...answer.headers,
      "content-type": contentType,
      // As Stripe marks it: the first answer to this IDEMPOTENCY-KEY, sent again.
      ...(answer.replayed && { "idempotent-replayed": "true" }),
    })
    .end(bodyText(answer));
  return { status: answer.status, mismatch: "" };
}

/** A streamed answer: its headers at once, then what its writer writes until either side ends it. */
function sendStream(
  response: ServerResponse,
  stream: StreamedAnswer,
  headers: Record<string, string> | undefined,
): Sent {
  response.writeHead(200, {
    ...headers,
    "content-type": stream.contentType,
    "cache-control": "no-store",
    // A proxy in front of the sandbox passes each part on as it comes.
    "x-accel-buffering": "no",
  });
  response.flushHeaders();
  // Each part goes out at once, not held back to fill a packet.
  response.socket?.setNoDelay(true);
  stream.start({
    write: (text) => response.write(text),
    drained: () =>
      response.writableNeedDrain
        ? new Promise((resolve) => response.once("drain", () => resolve()))
        : Promise.resolve(),
    end: () => response.end(),
    onClose: (listener) => {
      if (response.destroyed || response.writableEnded) queueMicrotask(listener);
      else response.once("close", listener);
    },
  });
  return { status: 200, mismatch: "" };
}

/** A streamed answer in plain terms: each part handed on as it is written. */
function sendPlainStream(
  reply: PlainReply,
  stream: StreamedAnswer,
  headers: Record<string, string> | undefined,
): Sent {
  reply.stream(
    200,
    { ...headers, "content-type": stream.contentType, "cache-control": "no-store" },
    {
      start(parts) {
        const closed: (() => void)[] = [];
        let ended = false;
        const close = () => {
          if (ended) return;
          ended = true;
          for (const listener of closed) listener();
        };
        parts.onCancel(close);
        stream.start({
          write: (text) => (ended ? true : parts.write(text)),
          drained: () => (ended ? Promise.resolve() : parts.drained()),
          end: () => {
            if (!ended) parts.end();
            close();
          },
          onClose: (listener) => {
            if (ended) queueMicrotask(listener);
            else closed.push(listener);
          },
        });
      },
    },
  );
  return { status: 200, mismatch: "" };
}

/** A sandbox with no room left says so (507); any other failure is not the sandbox's to name. */
export function sandboxFailure(error: unknown): Problem | undefined {
  if (!(error instanceof StoreFullError)) return undefined;
  return problem(507, "sandbox-full", "Sandbox full", [
    { location: "route", field: "", rule: "storage", message: error.message },
  ]);
}
