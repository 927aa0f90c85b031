// One verdict per API request, decided at the start of its transaction: the rate limit first, then
// the first fault rule of its operation that matches and is claimed. Applied once to the answer.
import type { Answer } from "../answers/answer.js";
import {
  type ArmedFaults,
  type FaultRows,
  faultVerdict,
  type RequestFacts,
  type Verdict,
} from "../faults/index.js";
import { type RateLimitRows, rateLimitVerdict } from "../rate-limit/index.js";

/** Nothing acts on the request. */
export const NO_VERDICT: Verdict = {};

/** What the rate limit and the armed rules decide for the request, at sandbox `nowMs`. */
export async function decideVerdict(
  tx: FaultRows & RateLimitRows,
  faults: ArmedFaults,
  facts: RequestFacts,
  nowMs: number,
): Promise<Verdict> {
  const limited = await rateLimitVerdict(tx, faults, nowMs);
  if (limited.answer !== undefined) return limited;
  const fault = await faultVerdict(tx, faults, facts);
  if (fault === undefined) return limited;
  return limited.headers === undefined ? fault : { ...fault, headers: limited.headers };
}

/** The answer as the verdict has it sent: after its delay, dropped after the commit, with its headers. */
export async function applyVerdict(verdict: Verdict, answer: Answer): Promise<Answer> {
  if (verdict.delayMs !== undefined) await waitMs(verdict.delayMs);
  const sent: Answer = verdict.dropAfterCommit ? { ...answer, drop: true } : answer;
  return verdict.headers === undefined
    ? sent
    : { ...sent, headers: { ...verdict.headers, ...sent.headers } };
}

function waitMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
