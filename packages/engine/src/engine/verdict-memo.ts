// What the engine found valid, remembered by request: routing and validating a request costs more
// than answering it from the sandbox, and Prism's verdict on a request without a body depends only
// on its method, target and headers (http/request-key.ts). The stateless mock remembers its whole
// answer the same way, where it is repeatable. Kept for one engine: a reloaded spec starts afresh.
import type { ApiRequest } from "../http/index.js";
import type { PrismEngine, Routed } from "./prism-engine.js";

/** A request Prism routed and found valid, as it was read. */
export interface Verdict {
  request: ApiRequest;
  routed: Routed;
}

/** At most this many verdicts are kept; one more starts the memo afresh. */
const MAX_VERDICTS = 1_000;

export class VerdictMemo<Value = Verdict> {
  private engine: PrismEngine | undefined;
  private readonly verdicts = new Map<string, Value>();

  get(engine: PrismEngine, key: string): Value | undefined {
    return engine === this.engine ? this.verdicts.get(key) : undefined;
  }

  set(engine: PrismEngine, key: string, verdict: Value): void {
    if (engine !== this.engine || this.verdicts.size >= MAX_VERDICTS) {
      this.verdicts.clear();
      this.engine = engine;
    }
    this.verdicts.set(key, verdict);
  }
}
