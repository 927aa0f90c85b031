// Health: whether the sandbox is ready, asked without a key (GET /_sandbox/health).
export {
  type HealthRows,
  type HealthSources,
  healthAnswer,
  type StoreKind,
  type StoreProbe,
} from "./health.js";
export { HEALTH_ROUTES, type HealthContext } from "./routes.js";
