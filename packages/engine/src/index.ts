// @org/payments-engine: what the mock, the proxy and the sandbox are built on. The HTTP front
// (serving, reading requests, problem bodies, CORS, request ids), the engine (Prism's routing and
// validation of one spec, its caches, the shaping of its answers) and helpers for JSON values.
export * from "./engine/index.js";
export * from "./http/index.js";
export * from "./values/index.js";
