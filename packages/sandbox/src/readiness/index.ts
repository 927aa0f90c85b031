// Readiness: what a partner's integration has shown in the sandbox, decided against a profile;
// its counters kept as requests finish, and its report through the test mode.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export type { ReadinessReport } from "./controls.js";
export { evaluate } from "./evaluate.js";
export { liveEvidence, sandboxEvidence } from "./evidence.js";
export { FORMATS, formatReport, type ReportFormat } from "./formats.js";
export {
  DEFAULT_PROFILE_FILE,
  defaultProfile,
  type Profile,
  ProfileError,
  parseProfile,
  readProfile,
} from "./profile.js";
export { PROFILE_CONTEXT } from "./profile-context.js";
export type { CountRows, ReadinessCount } from "./readiness-rows.js";
export {
  defaultChecklist,
  readinessReport,
  reportOf,
} from "./report.js";
export { countRequests } from "./request-counts.js";
export { READINESS_ROUTES, type ReadinessContext } from "./routes.js";
