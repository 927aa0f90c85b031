// What the local receivers answered, told to the sandbox (POST /_sandbox/events/receipts), so
// that they count in the partner's readiness report as a webhook's answers do. Sent in batches,
// beside the forwarding, never in its way: a receipt the sandbox does not take is said once on
// stderr, and the events go on.

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

export class Receipts {
  private queue: Receipt[] = [];
  private sending: Promise<void> | undefined;
  private warned = false;
  private readonly url: URL;
  private readonly apiKey: string;
  private readonly warn: (message: string) => void;

  constructor(baseUrl: URL, apiKey: string, warn: (message: string) => void) {
    this.url = new URL("_sandbox/events/receipts", baseUrl);
    this.apiKey = apiKey;
    this.warn = warn;
  }

  add(receipt: Receipt): void {
    this.queue.push(receipt);
    this.sending ??= this.send().finally(() => {
      this.sending = undefined;
    });
  }

  /** Resolves once every receipt added so far was sent (or failed). */
  async settled(): Promise<void> {
    while (this.sending !== undefined) await this.sending;
  }

  private async send(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      const problem = await fetch(this.url, {
        method: "POST",
        headers: { "x-api-key": this.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ receipts: batch }),
      })
        .then(async (response) =>
          response.ok ? undefined : `it answered ${response.status}: ${await response.text()}`,
        )
        .catch((error: Error) => ((error.cause as Error | undefined) ?? error).message);
      if (problem !== undefined && !this.warned) {
        this.warned = true;
        this.warn(
          `the sandbox did not take the receivers' answers for its readiness report (${problem.slice(0, 300)})`,
        );
      }
    }
  }
}
