// Small helpers for parsed JSON values and the YAML they are read from, with no HTTP in them: the
// engine, the sandbox and the mock share them.
export { isObject } from "./is-object.js";
export { MAX_QUOTED, quoted } from "./quoted.js";
export { valueAt } from "./value-at.js";
export { yamlProblem } from "./yaml-problem.js";
