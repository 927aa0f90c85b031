// What a process knows of a partner's armed rules and rate limit, so that a request of a partner
// with nothing armed pays one boolean test. A store only this process writes (memory, a SQLite
// file) is known exactly: every change goes through this process. For a shared store (Postgres)
// each request reads the partner's `faults_version` with its clock, in the read it made anyway,
// and the rules are read again when it moved.

import type { FaultRows } from "./fault-rows.js";
import { type ArmedRule, armedRuleOf } from "./fault-rules.js";

export interface ArmedRateLimit {
  requestsPerSecond: number;
  burst: number;
  intervalUs: number;
}

export class ArmedFaults {
  /** The `faults_version` the rules were read at; -1 before they were read. */
  version = -1;
  rules: ArmedRule[] = [];
  rateLimit: ArmedRateLimit | undefined;

  /** Whether anything may act on the partner's requests or deliveries. */
  get armed(): boolean {
    return this.rules.length > 0 || this.rateLimit !== undefined;
  }

  /** Reads the rules and the limit again, as of `version`. */
  async load(tx: FaultRows, version: number): Promise<void> {
    const { faults, rateLimit } = await tx.armed();
    this.rules = faults.map(armedRuleOf);
    this.rateLimit =
      rateLimit === undefined
        ? undefined
        : {
            requestsPerSecond: (JSON.parse(rateLimit.rule) as { requests_per_second: number })
              .requests_per_second,
            burst: rateLimit.burst,
            intervalUs: rateLimit.intervalUs,
          };
    this.version = version;
  }

  /** Reads them again in the transaction, at the partner's current version. */
  async reload(tx: FaultRows): Promise<void> {
    await this.load(tx, (await tx.partnerState()).faultsVersion);
  }

  /** Forgets a rule another process (or a claim) used up: the next read knows for sure. */
  drop(id: string): void {
    this.rules = this.rules.filter((armed) => armed.rule.id !== id);
  }
}
