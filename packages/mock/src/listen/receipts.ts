// What the local receivers answered, told to the sandbox (POST /_sandbox/events/receipts), so
// that they count in the partner's readiness report as a webhook's answers do. Sent in batches,
// beside the forwarding, never in its way: a receipt the sandbox does not take is said once on
// stderr, and the events go on. Receipts sent while the sandbox was down (a restart: the
// connection refused, or 503) are sent again when the stream opens again, and once more as listen
// stops; any other failure may have been counted already, so it is not sent twice.

export interface Receipt {
  /** The event's id. */
  id: string;
  /** The event's cursor. */
  cursor: string;
  /** The receiver's status; null when it did not answer. */
  status_code: number | null;
}

/** The most receipts one request carries (the route's limit). */
const BATCH = 100;
/** How long a batch's answer may take: a sandbox that never answers must not hold listen's stop. */
const ANSWER_MS = 10_000;

export class Receipts {
  private queue: Receipt[] = [];
  /** Receipts the sandbox certainly did not count: it could not be reached or was not ready. */
  private unsent: Receipt[] = [];
  private sending: Promise<void> | undefined;
  private warned = false;
  private readonly url: URL;
  private readonly apiKey: string;
  private readonly warn: (message: string) => void;
  private readonly answerMs: number;

  constructor(baseUrl: URL, apiKey: string, warn: (message: string) => void, answerMs = ANSWER_MS) {
    this.url = new URL("_sandbox/events/receipts", baseUrl);
    this.apiKey = apiKey;
    this.warn = warn;
    this.answerMs = answerMs;
  }

  add(receipt: Receipt): void {
    this.queue.push(receipt);
    this.startSending();
  }

  /** Sends again the receipts sent while the sandbox was down (call it once it answers again). */
  resend(): void {
    if (this.unsent.length === 0) return;
    this.queue.unshift(...this.unsent.splice(0));
    this.startSending();
  }

  private startSending(): void {
    this.sending ??= this.send().finally(() => {
      this.sending = undefined;
    });
  }

  /** How many receipts wait for the sandbox to answer again. */
  get waiting(): number {
    return this.unsent.length;
  }

  /** Resolves once every receipt added so far was sent (or failed). */
  async settled(): Promise<void> {
    while (this.sending !== undefined) await this.sending;
  }

  private async send(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      const signal = AbortSignal.timeout(this.answerMs);
      const { problem, uncounted } = await fetch(this.url, {
        method: "POST",
        headers: { "x-api-key": this.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ receipts: batch }),
        // Not followed: the key goes to the sandbox given, never where a redirect points.
        redirect: "manual",
        signal,
      })
        .then(async (response) =>
          response.ok
            ? { problem: undefined, uncounted: false }
            : {
                problem: `it answered ${response.status}: ${await response.text()}`,
                uncounted: response.status === 503,
              },
        )
        .catch((error: Error) => {
          const cause = (error.cause as NodeJS.ErrnoException | undefined) ?? error;
          return {
            problem: signal.aborted ? `no answer within ${this.answerMs / 1000} s` : cause.message,
            uncounted: (cause as NodeJS.ErrnoException).code === "ECONNREFUSED",
          };
        });
      if (uncounted) {
        // The sandbox is down: these and the rest wait for it to answer again.
        this.unsent.push(...batch, ...this.queue.splice(0));
        continue;
      }
      if (problem !== undefined && !this.warned) {
        this.warned = true;
        this.warn(
          `the sandbox did not take the receivers' answers for its readiness report (${problem.slice(0, 300)})`,
        );
      }
    }
  }
}
