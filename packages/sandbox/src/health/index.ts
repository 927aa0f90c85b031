// Health: whether the sandbox is ready, asked without a key (GET /_sandbox/health).
export { type HealthSources, healthAnswer, type StoreKind } from "./health.js";
export { HEALTH_ROUTES, type HealthContext } from "./routes.js";
