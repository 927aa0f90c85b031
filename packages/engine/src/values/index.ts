// Small helpers for parsed JSON values, with no HTTP in them: the engine and the sandbox share them.
export { isObject } from "./is-object.js";
export { valueAt } from "./value-at.js";
