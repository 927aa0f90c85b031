// Classifies the differences between two versions of the spec as breaking changes or safe ones
// (`additions`), from the point of view of a client built against the older version. The rules,
// and the reasons for them, are in diff/rules.js and openapi/README.md.

import { compareOperation } from "./diff/operation.js";
import { createReport } from "./diff/report.js";
import { compareServers } from "./diff/servers.js";
import { listOperations } from "./index.ts";

export { RULES } from "./diff/rules.js";

/**
 * @returns {{ breaking: Change[], additions: Change[] }} where a Change is
 *   `{ where, message, rule, operation, location }`.
 */
export function diffSpecs(base, head) {
  const report = createReport();
  compareServers({ report }, base.servers, head.servers);
  const baseOperations = operationsByKey(base);
  const headOperations = operationsByKey(head);
  for (const [key, baseEntry] of baseOperations) {
    const headEntry = headOperations.get(key);
    if (!headEntry) {
      report.add("operation-removed", label(baseEntry), "", "operation removed");
      continue;
    }
    compareOperation({ report, base, head, operation: label(headEntry) }, baseEntry, headEntry);
  }
  for (const [key, headEntry] of headOperations) {
    if (!baseOperations.has(key))
      report.add("operation-added", label(headEntry), "", "operation added");
  }
  return report.result();
}

/** Operations by method and path template, path variables unnamed: `{id}` and `{customer_id}` match. */
function operationsByKey(doc) {
  return new Map(
    listOperations(doc).map((entry) => [
      `${entry.method} ${entry.path.replace(/\{[^}]+\}/g, "{}")}`,
      entry,
    ]),
  );
}

function label(entry) {
  const route = `${entry.method.toUpperCase()} ${entry.path}`;
  return entry.operationId ? `${entry.operationId} (${route})` : route;
}
