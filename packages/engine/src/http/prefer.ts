// The `Prefer` request header, as Prism reads it: `code=404`, `example=person`, `dynamic=true` and
// `seed=…` choose the status, the named example, or generated data for one request.
import type { ProblemError } from "./problem.js";

export interface Preferences {
  /** The response status to answer with (one the operation declares, or its `default`). */
  code?: number;
  /** The name of the example to answer with. */
  exampleKey?: string;
  /** Generate data from the schema (true) or answer with the examples (false). */
  dynamic?: boolean;
  /** Makes generated data repeatable. */
  seed?: string;
}

export type ParsedPreferences =
  | { ok: true; preferences: Preferences }
  | { ok: false; error: ProblemError };

/**
 * Preferences are separated by `,` or `;`, each `name=value` or `name="value"` (RFC 7240). Names
 * the mock does not know are ignored, as RFC 7240 asks; a known one with a bad value is refused.
 */
export function parsePrefer(header: string | undefined): ParsedPreferences {
  const preferences: Preferences = {};
  if (header === undefined) return { ok: true, preferences };
  for (const token of header.split(/[,;]/)) {
    const [rawName = "", ...rest] = token.split("=");
    const name = rawName.trim().toLowerCase();
    const value = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (name === "code") {
      if (!/^[2-5]\d\d$/.test(value)) return refuse("code", "must be a status from 200 to 599");
      preferences.code = Number(value);
    } else if (name === "dynamic") {
      if (value !== "true" && value !== "false") return refuse("dynamic", "must be true or false");
      preferences.dynamic = value === "true";
    } else if (name === "example") {
      if (value === "") return refuse("example", "must name an example");
      preferences.exampleKey = value;
    } else if (name === "seed") {
      preferences.seed = value;
    }
  }
  return { ok: true, preferences };
}

export function hasPreferences(preferences: Preferences): boolean {
  return Object.keys(preferences).length > 0;
}

function refuse(name: string, message: string): ParsedPreferences {
  return {
    ok: false,
    error: { location: "header", field: "Prefer", rule: name, message: `${name}: ${message}` },
  };
}
