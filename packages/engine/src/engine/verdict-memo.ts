// What the engine found valid, remembered by request: routing and validating a request costs more
// than answering it from the sandbox, and Prism's verdict on a request without a body depends only
// on its method, target and headers (http/request-key.ts). Kept for one engine: a reloaded spec
// starts afresh.
import type { ApiRequest } from "../http/index.js";
import type { PrismEngine, Routed } from "./engine.js";

/** A request Prism routed and found valid, as it was read. */
export interface Verdict {
  request: ApiRequest;
  routed: Routed;
}

/** At most this many verdicts are kept; one more starts the memo afresh. */
const MAX_VERDICTS = 1_000;

export class VerdictMemo {
  private engine: PrismEngine | undefined;
  private readonly verdicts = new Map<string, Verdict>();

  get(engine: PrismEngine, key: string): Verdict | undefined {
    return engine === this.engine ? this.verdicts.get(key) : undefined;
  }

  set(engine: PrismEngine, key: string, verdict: Verdict): void {
    if (engine !== this.engine || this.verdicts.size >= MAX_VERDICTS) {
      this.verdicts.clear();
      this.engine = engine;
    }
    this.verdicts.set(key, verdict);
  }
}
