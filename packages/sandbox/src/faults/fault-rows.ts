// What the faults keep in the store, per partner (the SQL is store/fault-rows.ts): the armed rules
// and the rate limit, and the version that moves with every change to them, which each request of
// a shared store reads with its clock.

/** An armed fault rule as stored: its JSON, what remains of its `times` (null: by probability), its draws. */
export interface StoredFault {
  id: string;
  rule: string;
  remaining: number | null;
  draws: number;
}

/** A partner's rate limit as stored: GCRA's emission interval and burst, in µs of sandbox time. */
export interface StoredRateLimit {
  rule: string;
  intervalUs: number;
  burst: number;
}

export interface FaultRows {
  /** The partner's clock offset and the version of its fault rules and rate limit, in one read. */
  partnerState(): Promise<{ offsetMs: number; faultsVersion: number }>;
  /** The partner's armed fault rules, oldest first, and its rate limit. */
  armed(): Promise<{ faults: StoredFault[]; rateLimit: StoredRateLimit | undefined }>;
  /** Arms a rule. */
  armFault(fault: StoredFault): Promise<void>;
  /** Disarms a rule; false when the partner has none with the id. */
  disarmFault(id: string): Promise<boolean>;
  /**
   * Takes one application of the rule, atomically across processes: one of its remaining `times`
   * (the rule is disarmed when none remain), or the next draw of a rule by probability (resolves
   * to the draw's number, from 1). Undefined when the rule is gone or spent.
   */
  claimFault(id: string): Promise<{ remaining: number | null; draw: number } | undefined>;
}
