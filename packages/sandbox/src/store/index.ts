// @org/payments-sandbox/store: the sandbox's stores opened by themselves, for the CLI (where the
// data is), schema migrations and the tests that hold a store to its contract.

export { LOGGED_EVENTS_KEPT } from "./event-log-rows.js";
export { openStore } from "./open-store.js";
export { DEFAULT_EXAMPLE_KEY, EXAMPLE_PARTNER_ID, partnerIdOf } from "./partner.js";
export { isPostgresUrl, openPostgresStore, redactedUrl, SCHEMA_LOCK } from "./postgres-store.js";
export { COLLECTIONS, type DeliveryEvent, type SandboxData, type Stored } from "./sandbox-data.js";
export { MIGRATIONS, SCHEMA_VERSION } from "./schema-migrations.js";
export { openSqliteStore } from "./sqlite-store.js";
export {
  EVENTS_KEPT,
  KEY_RETENTION_MS,
  REQUESTS_KEPT,
  type SandboxStore,
  StoreFullError,
} from "./store.js";
