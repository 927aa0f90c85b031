// The clock's test-mode routes: where the partner's sandbox clock is, and moving it forward, which
// runs everything scheduled up to then, in order (the scheduler's part: `runner`).
import { type Answer, ok, problemAnswer } from "../answers/answer.js";
import type { components } from "../generated/test-mode.js";
import type { Routes } from "../test-mode/index.js";
import type { SandboxClock } from "./clock.js";

type ClockAdvance = components["schemas"]["ClockAdvance"];

/** A partner's clock as its routes move it: the scheduler runs what comes due on the way. */
export interface PartnerClockRunner {
  /**
   * Moves the clock to `toMs`, running in order everything due by then; resolves to the number
   * of jobs run.
   */
  advance(toMs: number): Promise<number>;
  /**
   * Moves the clock `ms` further ahead of real time, running in order everything due by then:
   * however long that takes, the clock ends exactly `ms` further ahead than it was.
   */
  advanceBy(ms: number): Promise<number>;
  /** Reads the clock's offset from the store, where other processes may have moved it. */
  syncClock(): Promise<void>;
}

/** What the clock's routes are handed: the partner's clock and its runner. */
export interface ClockContext {
  clock: SandboxClock;
  runner: PartnerClockRunner;
}

/** The longest clock advance: a century (the document's `seconds` maximum). */
const MAX_ADVANCE_SECONDS = 100 * 365 * 24 * 60 * 60;

export const CLOCK_ROUTES: Routes<ClockContext> = {
  getClock: async ({ clock, runner }) => {
    await runner.syncClock();
    return ok(clockBody(clock));
  },
  advanceClock: ({ clock, runner }, { body }) => advanceClock(clock, runner, body as ClockAdvance),
};

function clockBody(clock: SandboxClock) {
  return { now: clock.now().toISOString(), ahead_by_seconds: Math.round(clock.offsetMs / 1000) };
}

/**
 * POST /_sandbox/clock/advance with `{ "seconds": n }` or `{ "to": "<date-time>" }` (the
 * document admits exactly one, `seconds` within a century): moves the clock forward, running
 * everything scheduled up to then, in order. Never back, nor beyond a century.
 */
async function advanceClock(
  clock: SandboxClock,
  runner: PartnerClockRunner,
  advance: ClockAdvance,
): Promise<Answer> {
  await runner.syncClock();
  const now = clock.nowMs();
  if ("seconds" in advance) {
    // By the offset, so that the time the advance takes does not come off it.
    const ran = await runner.advanceBy(Math.round(advance.seconds * 1000));
    return ok({ ...clockBody(clock), ran });
  }
  const { to } = advance;
  const target = timeOf(to);
  if (Number.isNaN(target)) {
    return clockRefused(
      "format",
      "must be a date and time in RFC 3339 form, such as 2026-01-31T09:30:00Z, with an offset from -23:59 to +23:59",
    );
  }
  if (target < now) {
    return clockRefused(
      "minimum",
      `the clock never goes back: it is at ${new Date(now).toISOString()}, later than ${to}`,
    );
  }
  if (target - now > MAX_ADVANCE_SECONDS * 1000) {
    return clockRefused("maximum", "must be within a century of now");
  }
  const ran = await runner.advance(target);
  return ok({ ...clockBody(clock), ran });
}

/**
 * The time `to` names, or NaN. The document's date-time format takes what Date.parse does not read:
 * a leap second (23:59:60, the second after 23:59:59) and an offset of hours alone (`+05`), read
 * here; an offset past 23:59 (`+24:00`), which names no time, is NaN.
 */
function timeOf(to: string): number {
  const leap = /^(.*\d\d:\d\d:)60(\.\d+)?(.*)$/.exec(to);
  const text = (leap ? `${leap[1]}59${leap[2] ?? ""}${leap[3]}` : to).replace(
    /([+-]\d\d)$/,
    "$1:00",
  );
  return Date.parse(text) + (leap ? 1000 : 0);
}

function clockRefused(rule: string, message: string): Answer {
  return problemAnswer(422, "invalid-request", "Invalid request", [
    { location: "body", field: "to", rule, message },
  ]);
}
