// Collects classified changes. Each change names its rule, the operation and the location, and its
// message says what changed and, for a breaking change, how to make it safely.
import { RULES } from "./rules.js";

/**
 * @typedef {{ where: string, message: string, rule: string, operation: string, location: string }} Change
 */

export function createReport() {
  /** @type {Change[]} */
  const breaking = [];
  /** @type {Change[]} */
  const additions = [];
  return {
    /**
     * @param {string} rule an id of RULES
     * @param {string} operation such as `createCustomer (POST /customers)`, or `servers`
     * @param {string} location such as `response 200 application/json body.status`; "" for the whole operation
     * @param {string} detail what changed, in words
     */
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
