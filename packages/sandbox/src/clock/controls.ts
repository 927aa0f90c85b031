// The clock's part of the typed controls.
import { type ControlsClient, dataOf, type Schemas } from "../test-mode/client.js";

/** Where the sandbox clock is: sandbox now, and how far it is ahead of real time. */
export type SandboxClockReading = Schemas["ClockReading"];

export interface ClockControls {
  /** Where the sandbox clock is. */
  clock(): Promise<SandboxClockReading>;
  /**
   * Moves the clock forward by `seconds`, or `to` a later time, running in order everything
   * scheduled until then; resolves once it has (with the number of jobs run).
   */
  advanceClock(
    by: { seconds: number } | { to: string | Date },
  ): Promise<SandboxClockReading & { ran: number }>;
}

export function clockControls(client: ControlsClient): ClockControls {
  return {
    clock: () => dataOf("GET", client.GET("/_sandbox/clock")),
    advanceClock: (by) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/clock/advance", {
          body: "to" in by ? { to: by.to instanceof Date ? by.to.toISOString() : by.to } : by,
        }),
      ),
  };
}
