// A request and its answer with no server: what a fetch handler, a service worker or MSW hands the
// engine (a method, a target, headers and the body's bytes), and the answer collected in the same
// plain terms. Node's ServerResponse is a Reply as it is, so the Node server keeps its own way.
import {
  headTooLarge,
  MAX_BODY_BYTES,
  MAX_HEAD_BYTES,
  type ReadResult,
  readBodyOf,
  readHead,
  type SegmentName,
  tooLarge,
} from "./read-request.js";
import { REQUEST_ID } from "./request-id.js";

/** A request as bytes: its target is a path with its query (or an absolute URL, whose origin is ignored). */
export interface PlainRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What an answer is written to: the part of Node's ServerResponse the engine and the sandbox use. */
export interface Reply {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  getHeader(name: string): unknown;
  writeHead(status: number, headers?: Record<string, string>): { end(text?: string): unknown };
  destroy(): unknown;
}

/** A streamed answer's parts, as a plain reply hands them on. */
export interface PlainStream {
  /** Receives each part as it is written, and the end. */
  start(parts: {
    /** Hands the part on; false when the reader has not taken what came before. */
    write(text: string): boolean;
    /** Resolves once the reader has taken what was handed on (or has gone). */
    drained(): Promise<void>;
    end(): void;
    onCancel(listener: () => void): void;
  }): void;
}

/** An answer in plain terms: a status, headers and a body, or nothing (a dropped connection). */
export type PlainAnswer =
  | { dropped: false; status: number; headers: Record<string, string>; body: string | PlainStream }
  | { dropped: true };

/** A Reply that keeps what is written to it. */
export class PlainReply implements Reply {
  #status = 0;
  #headers: Record<string, string> = {};
  #body: string | PlainStream = "";
  #ended = false;
  #dropped = false;

  get headersSent(): boolean {
    return this.#status !== 0;
  }

  setHeader(name: string, value: string): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.#headers[name.toLowerCase()];
  }

  writeHead(status: number, headers: Record<string, string> = {}): { end(text?: string): void } {
    this.#status = status;
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    return {
      end: (text = "") => {
        this.#body = text;
        this.#ended = true;
      },
    };
  }

  /** Answers with a stream: the headers now, the parts as they come. */
  stream(status: number, headers: Record<string, string>, stream: PlainStream): void {
    this.writeHead(status, headers);
    this.#body = stream;
    this.#ended = true;
  }

  destroy(): void {
    this.#dropped = true;
  }

  answer(): PlainAnswer {
    if (this.#dropped || !this.#ended) return { dropped: true };
    return { dropped: false, status: this.#status, headers: this.#headers, body: this.#body };
  }
}

/** Reads a plain request as readRequest reads a Node one. */
export function readPlainRequest(request: PlainRequest, nameOf: SegmentName): ReadResult {
  if (headBytes(request) > MAX_HEAD_BYTES) return headTooLarge();
  const head = readHead(request, nameOf);
  if (!head.ok) return head;
  if (request.body.byteLength > MAX_BODY_BYTES) return tooLarge();
  return readBodyOf(request, head, request.body);
}

/**
 * The request line and headers as HTTP/1.1 writes them, in bytes: what Node's server limits. A
 * header value is a byte string, one byte a character.
 */
function headBytes({ method, url, headers }: PlainRequest): number {
  let bytes = `${method} ${url} HTTP/1.1\r\n\r\n`.length;
  for (const name in headers) bytes += `${name}: ${headers[name]}\r\n`.length;
  return bytes;
}

/** The plain request's bodilessKey: its method, target and headers, or undefined when it has a body. */
export function plainKey(request: PlainRequest): string | undefined {
  if (request.body.byteLength > 0) return undefined;
  let key = `${request.method} ${request.url}`;
  for (const name in request.headers) {
    if (name !== REQUEST_ID) key += `\n${name}: ${request.headers[name]}`;
  }
  return key;
}
