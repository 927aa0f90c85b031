// The readiness report's part of the typed controls.
import { type ControlsClient, dataOf, type Schemas } from "../test-mode/client.js";

/** The partner's readiness report: the profile's checks decided, and what they were decided on. */
export type ReadinessReport = Schemas["ReadinessReport"];

export interface ReadinessControls {
  /** The partner's readiness report: each check of the profile, and the coverage behind it. */
  readiness(): Promise<ReadinessReport>;
}

export function readinessControls(client: ControlsClient): ReadinessControls {
  return { readiness: () => dataOf("GET", client.GET("/_sandbox/readiness")) };
}
