// The engine: Prism's routing, validation and mocking of one spec, its caches and the shaping of
// its answers, with the request problems it finds in the mock's words.

export { allowedMethods } from "./allowed-methods.js";
export { type DeprecatedUse, deprecatedUses, deprecationHeaders } from "./deprecations.js";
export { bundledSpecPath, operationsFromSnapshot, operationsSnapshot } from "./prism/index.js";
export {
  createPrismEngine,
  type Operation,
  type Operations,
  type PrismCheck,
  type PrismEngine,
  type PrismOutcome,
  type PrismRefusal,
  type PrismResponse,
  prismEngineOf,
  type Routed,
  silentLogger,
} from "./prism-engine.js";
export { refusalStatus, requestProblems, requestRefusal } from "./request-problems.js";
export { unavailablePreference } from "./shaping/index.js";
export {
  ERROR_SEVERITY,
  type PrismDiagnostic,
  type ReceivedAt,
  toProblemErrors,
} from "./validation/index.js";
export { type Verdict, VerdictMemo } from "./verdict-memo.js";
