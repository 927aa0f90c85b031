// Readiness: what a partner's integration has shown in the sandbox, decided against a profile.
export { type CheckResult, type CheckStatus, evaluate, type Verdict } from "./evaluate.js";
export {
  type Coverage,
  type Evidence,
  liveEvidence,
  operationCoverage,
  sandboxEvidence,
} from "./evidence.js";
export { FORMATS, formatReport, type ReportFormat } from "./formats.js";
export {
  type Check,
  DEFAULT_PROFILE_FILE,
  defaultProfile,
  type Profile,
  type ProfileContext,
  ProfileError,
  parseProfile,
  readProfile,
} from "./profile.js";
export { PROFILE_CONTEXT } from "./profile-context.js";
export {
  defaultChecklist,
  evidenceOf,
  type ReadinessReport,
  readinessReport,
  reportOf,
} from "./report.js";
export { COUNT_AFTER_MS, RequestCounter } from "./request-counter.js";
export { type CountedRequest, countRequests, RATE_LIMIT_FAULT } from "./request-counts.js";
export { reportFromStore } from "./store-report.js";
