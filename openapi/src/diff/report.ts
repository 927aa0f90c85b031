// Collects classified changes. Each change names its rule, the operation and the location, and its
// message says what changed and, for a breaking change, how to make it safely.
import { RULES } from "./rules.ts";
import type { Report, SpecChange } from "./types.ts";

export function createReport(): Report {
  const breaking: SpecChange[] = [];
  const additions: SpecChange[] = [];
  return {
    add(rule, operation, location, detail) {
      const definition = RULES[rule];
      if (!definition) throw new Error(`spec diff: unknown rule ${rule}`);
      const where = location === "" ? operation : `${operation} ${location}`;
      const message =
        definition.breaking && definition.fix ? `${detail}; ${definition.fix}` : detail;
      (definition.breaking ? breaking : additions).push({
        where,
        message,
        rule,
        operation,
        location,
      });
    },
    get size() {
      return breaking.length + additions.length;
    },
    result() {
      return { breaking, additions };
    },
  };
}
