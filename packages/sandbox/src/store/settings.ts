// Each partner's values kept beside its resources, one row per partner and name: the rate table
// (rates.ts) and the secret its quotes are signed with (quote-signature.ts); a missing row means
// the default. This file holds the table as migration 4 made it, sandbox-wide; migration 5
// (schema-migrations.ts) rebuilt it with the partner in its key, as every other table.
export const SETTINGS_TABLE =
  "CREATE TABLE IF NOT EXISTS sandbox_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)";

export type SettingName = "rates" | "quote_signing_secret";

/** The settings a fresh sandbox starts with, by name; absent ones take their defaults. */
export type Settings = Partial<Record<SettingName, string>>;
