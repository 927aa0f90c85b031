/**
 * MCP over stdio: one JSON-RPC message per line each way (the SDK's `Transport` interface), the
 * API key taken out of every error sent.
 *
 * In place of the SDK's `StdioServerTransport`, which reports a line it cannot read only to the
 * server (the client's request then waits for its timeout) and ends the session at a line over
 * its 10 MB cap. Here such a line gets the JSON-RPC error at once, with the request's id when it
 * can be read, and the session goes on. A message is checked against the SDK's JSON-RPC schema,
 * as its reader does: the SDK's `Protocol` drops one it cannot tell apart (an `id` of 1.5, an
 * unknown field, `params` that is not an object) without an answer.
 *
 * The client ends the session by closing our standard input. A last line without its newline is
 * read then, and the transport closes once every request read has its answer written.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { redactMessage } from "./redact.js";
import { messageJson } from "./structured-content-text.js";

/** The longest line read, as the SDK's reader: a longer one is dropped and answered. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** How much of a dropped line's end is kept to find its id (the SDK's client writes it last). */
const TAIL_BYTES = 256;

type Id = string | number | null;

export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #apiKey: string;
  /** The start of a line whose end has not come yet, in the chunks it came in. */
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** The last bytes of a line over the cap, which is dropped up to its end. */
  #droppedTail: Buffer | undefined;
  /** The ids of the requests read and not answered yet. */
  readonly #unanswered = new Set<string | number>();
  #inputEnded = false;

  constructor(apiKey: string, input: Readable = process.stdin, output: Writable = process.stdout) {
    this.#apiKey = apiKey;
    this.#input = input;
    this.#output = output;
  }

  async start(): Promise<void> {
    this.#input.on("data", this.#onData);
    this.#input.on("error", this.#onError);
    this.#input.once("end", this.#onEnd);
  }

  async close(): Promise<void> {
    this.#input.off("data", this.#onData);
    this.#input.off("error", this.#onError);
    this.#input.off("end", this.#onEnd);
    if (this.#input.listenerCount("data") === 0) this.#input.pause();
    this.#partial = [];
    this.#partialBytes = 0;
    this.#droppedTail = undefined;
    this.onclose?.();
  }

  /** Writes the message as one line, the API key taken out of an error's text. */
  async send(message: JSONRPCMessage): Promise<void> {
    const line = `${messageJson(redactMessage(message, this.#apiKey))}\n`;
    await new Promise<void>((resolve) => {
      if (this.#output.write(line)) resolve();
      else this.#output.once("drain", resolve);
    });
    if ("id" in message && !("method" in message) && message.id !== undefined) {
      this.#unanswered.delete(message.id);
      this.#closeWhenAnswered();
    }
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onData = (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.#keep(chunk.subarray(start, end));
      start = end + 1;
      this.#endLine();
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  };

  readonly #onEnd = () => {
    // The end of the input ends its last line too.
    this.#endLine();
    this.#inputEnded = true;
    this.#closeWhenAnswered();
  };

  #closeWhenAnswered() {
    if (this.#inputEnded && this.#unanswered.size === 0) void this.close();
  }

  /** Reads the line kept so far, or answers it when it was dropped. */
  #endLine() {
    const pieces = this.#partial;
    const dropped = this.#droppedTail;
    this.#partial = [];
    this.#partialBytes = 0;
    this.#droppedTail = undefined;
    const line = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
    if (dropped === undefined) this.#read(line.toString("utf8"));
    else this.#answerDropped(dropped);
  }

  /** Keeps a piece of the line begun, or only the line's last bytes once it is over the cap. */
  #keep(piece: Buffer) {
    if (this.#droppedTail === undefined && this.#partialBytes + piece.length <= MAX_LINE_BYTES) {
      this.#partial.push(piece);
      this.#partialBytes += piece.length;
      return;
    }
    this.#droppedTail = lastBytes([
      ...(this.#droppedTail ? [this.#droppedTail] : this.#partial),
      piece,
    ]);
    this.#partial = [];
    this.#partialBytes = 0;
  }

  #answerDropped(tail: Buffer) {
    this.#refuse(
      INVALID_REQUEST,
      idAtEnd(tail.toString("utf8")),
      `a message longer than ${MAX_LINE_BYTES} bytes was dropped unread; send smaller arguments`,
    );
  }

  #read(text: string) {
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      const reason = (error as Error).message;
      this.#refuse(PARSE_ERROR, null, `a line is not JSON (${reason}); send one message per line`);
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      const id = idOf(message);
      const what = "a JSON-RPC 2.0 request, notification or response";
      this.#refuse(INVALID_REQUEST, id, `the message is not ${what}`);
      return;
    }
    this.#track(message as JSONRPCMessage);
    this.onmessage?.(message as JSONRPCMessage);
  }

  /** Notes a request read, which the session answers before it ends; a cancelled one gets none. */
  #track(message: JSONRPCMessage) {
    if (!("method" in message)) return;
    if ("id" in message) this.#unanswered.add(message.id);
    else if (message.method === "notifications/cancelled") {
      const { requestId } = (message.params ?? {}) as { requestId?: string | number };
      if (requestId !== undefined) this.#unanswered.delete(requestId);
    }
  }

  /** A JSON-RPC error answer, and the same said to `onerror`. */
  #refuse(code: number, id: Id, reason: string) {
    const message = `${code === PARSE_ERROR ? "Parse error" : "Invalid request"}: ${reason}`;
    this.onerror?.(new Error(message));
    // JSON-RPC answers with id null what it cannot tie to a request; the SDK's types allow no null.
    const answer = { jsonrpc: "2.0", id, error: { code, message } };
    void this.send(answer as unknown as JSONRPCMessage);
  }
}

/** The last TAIL_BYTES of the pieces, in order, without joining the pieces before them. */
function lastBytes(pieces: Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let size = 0;
  for (let i = pieces.length - 1; i >= 0 && size < TAIL_BYTES; i--) {
    const piece = pieces[i] as Buffer;
    kept.unshift(piece);
    size += piece.length;
  }
  const tail = Buffer.concat(kept);
  return tail.subarray(Math.max(0, tail.length - TAIL_BYTES));
}

function idOf(message: unknown): Id {
  if (message === null || typeof message !== "object") return null;
  const { id } = message as Record<string, unknown>;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** The `"id"` that ends a message's JSON text (where the SDK's client writes it), if it does. */
function idAtEnd(tail: string): Id {
  const match = /"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")\s*}\s*\r?$/.exec(tail);
  if (!match?.[1]) return null;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return null;
  }
}
