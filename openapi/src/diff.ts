// Classifies the differences between two versions of the spec as breaking changes or safe ones
// (`additions`), from the point of view of a client built against the older version. The rules,
// and the reasons for them, are in diff/rules.js and openapi/README.md.

import { compareOperation } from "./diff/operation.ts";
import { createReport } from "./diff/report.ts";
import { compareServers, type Server } from "./diff/servers.ts";
import type { SpecDiff } from "./diff/types.ts";
import { listOperations, type OpenApiDocument, type OperationEntry } from "./document.ts";

// The report and the rules serve @org/payments-surface-guard too: its package rules are in RULES.
export {
  actionOf,
  deprecationAction,
  fieldOf,
  kindOf,
  sunsetIn,
} from "./diff/consumer.ts";
export { createReport } from "./diff/report.ts";
export { type Breaks, RULES, type Rule } from "./diff/rules.ts";
export type { Report, SpecChange, SpecDiff } from "./diff/types.ts";

/** Every change on the wire from `base` to `head`, breaking ones apart from the others. */
export function diffSpecs(base: OpenApiDocument, head: OpenApiDocument): SpecDiff {
  const report = createReport();
  compareServers(
    { report },
    base.servers as Server[] | undefined,
    head.servers as Server[] | undefined,
  );
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
function operationsByKey(doc: OpenApiDocument): Map<string, OperationEntry> {
  return new Map(
    listOperations(doc).map((entry) => [
      `${entry.method} ${entry.path.replace(/\{[^}]+\}/g, "{}")}`,
      entry,
    ]),
  );
}

function label(entry: OperationEntry): string {
  const route = `${entry.method.toUpperCase()} ${entry.path}`;
  return entry.operationId ? `${entry.operationId} (${route})` : route;
}
