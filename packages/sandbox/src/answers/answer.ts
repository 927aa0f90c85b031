// What the sandbox answers: a status and a JSON body, or a problem in the mock's own format.
import {
  type Problem,
  type ProblemError,
  type ProblemLocation,
  problem,
} from "@org/payments-engine";
import { jsonText } from "../json/json-text.js";

/** A status and a JSON body (the store keeps them as an AnswerRecord with an idempotency key). */
export interface Answer {
  status: number;
  body: unknown;
  /** The first answer to an `IDEMPOTENCY-KEY`, given again to a repeat of its request. */
  replayed?: boolean;
  /** Headers beside the content type (a fault's Retry-After, the rate limit's). */
  headers?: Record<string, string>;
  /** A fault's lost answer: the connection closes and nothing is sent. */
  drop?: true;
  /**
   * A streamed answer (`status` 200, `body` unused): sent as `contentType` text, written by
   * `stream` for as long as it wants and the client stays.
   */
  stream?: StreamedAnswer;
}

/** An answer written over time, such as Server-Sent Events. */
export interface StreamedAnswer {
  contentType: string;
  /** Starts writing to `sink`; the sink closes when the client goes or the sandbox stops. */
  start(sink: AnswerSink): void;
}

/** Where a streamed answer writes. */
export interface AnswerSink {
  /** Writes the text now; false when the client is not reading fast enough (wait for `drained`). */
  write(text: string): boolean;
  /** Resolves once the client has read what was written. */
  drained(): Promise<void>;
  /** Ends the answer. */
  end(): void;
  /** Called once when the answer ends, by either side. */
  onClose(listener: () => void): void;
}

/** The answer's body as the client gets it. */
export function bodyText(answer: Answer): string {
  return jsonText(answer.body);
}

export function ok(body: unknown): Answer {
  return { status: 200, body };
}

export function problemAnswer(
  status: number,
  kind: string,
  title: string,
  errors: ProblemError[],
): Answer & { body: Problem } {
  return { status, body: problem(status, kind, title, errors) };
}

export function notFound(location: ProblemLocation, field: string, message: string): Answer {
  return problemAnswer(404, "not-found", "Resource not found", [
    { location, field, rule: "exists", message },
  ]);
}
