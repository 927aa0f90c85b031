// The one driver of every package comparison: make both versions' surfaces, compare their exports,
// and report each finding under its rule. The API's packages (packages.ts) and the mock's test-mode
// controls (test-mode.ts) differ only in how a version's surface is made and how an export is judged.
import type { OpenApiDocument } from "@org/payments-spec";
import { createReport, type Report, type SpecDiff } from "@org/payments-spec/diff";
import {
  compareSurfaces,
  type ExportRole,
  type SurfaceFinding,
  type SurfaceVersion,
} from "./surface.ts";

export type SurfaceComparison = {
  /** Where a head spec the generators refuse is reported (`package-generation-failed`). */
  owner: string;
  /** One version's packages as the compiler sees them; `version` names its virtual folder. */
  surfaceOf(doc: OpenApiDocument, version: "base" | "head"): Promise<SurfaceVersion>;
  /** How each export is judged, given the base document. */
  rolesOf(base: OpenApiDocument): (pkg: string, name: string) => ExportRole;
};

/** Every change from `base` to `head` in what the compared packages export, breaking ones apart. */
export async function diffSurfaces(
  base: OpenApiDocument,
  head: OpenApiDocument,
  comparison: SurfaceComparison,
): Promise<SpecDiff> {
  const report = createReport();
  const before = await comparison.surfaceOf(base, "base");
  let after: SurfaceVersion;
  try {
    after = await comparison.surfaceOf(head, "head");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    report.add("package-generation-failed", comparison.owner, "", `generation fails: ${reason}`);
    return report.result();
  }
  for (const finding of compareSurfaces(before, after, comparison.rolesOf(base))) {
    record(report, finding);
  }
  return report.result();
}

/** Each finding under its rule, in the words of the export it concerns. */
function record(report: Report, finding: SurfaceFinding) {
  const { package: pkg, name, what, change, role } = finding;
  const at = `export ${name}`;
  const add = (rule: string, detail: string) => report.add(rule, pkg, at, detail);
  switch (what) {
    case "export":
      return add(`package-export-${change}`, `export ${name} ${change}`);
    case "path":
      return add(`package-path-${change}`, `path ${name} ${change}`);
    case "resource":
      return add(`package-resource-${change}`, `facade resource ${name} ${change}`);
    case "method":
      return add(`package-method-${change}`, `facade method ${name} ${change}`);
    case "arguments":
      return add(
        "package-method-arguments-narrowed",
        `facade method ${name} no longer accepts every argument list it accepted`,
      );
    case "result":
      return add(
        "package-method-result-widened",
        `facade method ${name} may resolve to values it did not resolve to`,
      );
    case "value":
      return add("package-enum-array-changed", `the values of ${name} changed`);
    case "type":
      if (change === "changed" || (role !== "request" && role !== "response")) {
        return add(
          "package-type-changed",
          `type ${name} admits other values than it did (${change})`,
        );
      }
      return add(`package-${role}-type-${change}`, `type ${name} ${change}`);
  }
}
