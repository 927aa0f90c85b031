// The readiness report's part of the typed controls.
import { type ControlsClient, dataOf } from "../test-mode/index.js";
import type { ReadinessReport } from "./report.js";

export interface ReadinessControls {
  /** The partner's readiness report: each check of the profile, and the coverage behind it. */
  readiness(): Promise<ReadinessReport>;
}

export function readinessControls(client: ControlsClient): ReadinessControls {
  return { readiness: () => dataOf("GET", client.GET("/_sandbox/readiness")) };
}
