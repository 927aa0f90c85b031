// IDEMPOTENCY-KEY: the first answer to a key is kept (in the state file too) and replayed to
// every repeat of the same request; the key with another request is refused; concurrent
// requests with one key wait for the first, so exactly one of them does the work.
import { type Answer, problemAnswer } from "./answer.js";
import type { IdempotentAnswer } from "./state.js";

export interface KeyedRequest {
  key: string;
  method: string;
  path: string;
  scope: string | undefined;
  body: unknown;
}

export class Idempotency {
  private readonly inFlight = new Map<string, Promise<Answer>>();

  private readonly answers: () => Record<string, IdempotentAnswer>;

  constructor(answers: () => Record<string, IdempotentAnswer>) {
    this.answers = answers;
  }

  /** Runs `work` once per key; `remember` is called when its answer has been recorded. */
  async run(
    request: KeyedRequest,
    work: () => Answer | Promise<Answer>,
    remember: () => void,
  ): Promise<Answer> {
    const pending = this.inFlight.get(request.key);
    if (pending !== undefined) await pending.catch(() => undefined);
    const fingerprint = fingerprintOf(request);
    const first = this.answers()[request.key];
    if (first !== undefined) {
      return first.fingerprint === fingerprint
        ? structuredClone(first.answer)
        : reused(request, first);
    }
    const running = Promise.resolve().then(work);
    this.inFlight.set(request.key, running);
    try {
      const answer = await running;
      this.answers()[request.key] = {
        method: request.method,
        path: request.path,
        fingerprint,
        answer: structuredClone(answer),
      };
      remember();
      return answer;
    } finally {
      this.inFlight.delete(request.key);
    }
  }
}

function fingerprintOf({ method, path, scope, body }: KeyedRequest): string {
  return JSON.stringify([method, path, scope ?? null, canonical(body)]);
}

/** JSON with object keys sorted, so that key order does not make two bodies differ. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

function reused(request: KeyedRequest, first: IdempotentAnswer): Answer {
  const samePath = first.method === request.method && first.path === request.path;
  const why = samePath
    ? `was first used for ${first.method} ${first.path} with a different body or X-SUB-PARTNER-ID`
    : `was first used for ${first.method} ${first.path}, not ${request.method} ${request.path}`;
  return problemAnswer(422, "idempotency-key-reused", "Idempotency key reused", [
    {
      location: "header",
      field: "IDEMPOTENCY-KEY",
      rule: "idempotency",
      message: `${request.key} ${why}; send a new key for a new request`,
    },
  ]);
}
