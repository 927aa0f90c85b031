// The health check's route: answered before any partner is entered, from what the composition
// hands it once (plain values, the store to probe, the scheduler's state).
import type { Routes } from "../test-mode/index.js";
import { type HealthSources, healthAnswer } from "./health.js";

/** What the health check's route is handed. */
export interface HealthContext {
  health: HealthSources;
}

export const HEALTH_ROUTES: Routes<HealthContext> = {
  getHealth: ({ health }) => healthAnswer(health),
};
