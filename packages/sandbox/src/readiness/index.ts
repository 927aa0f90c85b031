// Readiness: what a partner's integration has shown in the sandbox, decided against a profile.
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
export {
  defaultChecklist,
  type ReadinessReport,
  readinessReport,
  reportOf,
} from "./report.js";
export { type CountedRequest, countRequests } from "./request-counts.js";
export { reportFromStore } from "./store-report.js";
