// Sandbox-wide values kept beside the resources, one row each: the rate table (rates.ts) and the
// secret quotes are signed with (quote-signature.ts). This file holds the table's DDL, which a
// schema migration applies (schema-migrations.ts); a missing row means the default.
export const SETTINGS_TABLE =
  "CREATE TABLE IF NOT EXISTS sandbox_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)";

export type SettingName = "rates" | "quote_signing_secret";

/** The settings a fresh sandbox starts with, by name; absent ones take their defaults. */
export type Settings = Partial<Record<SettingName, string>>;
