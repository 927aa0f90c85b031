export { bundledSpecPath } from "./bundled-spec.js";
export type { Problem, ProblemError, ProblemLocation } from "./problem.js";
export { PROBLEM_CONTENT_TYPE } from "./problem.js";
export type { ConnectionLimits, MockOptions, RunningMock } from "./start-mock.js";
export { startMock } from "./start-mock.js";
