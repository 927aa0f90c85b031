// The published-surface guard: what a spec change does to what @org/payments-types and
// @org/payments-client export. `npm run spec:diff` runs it beside the spec's wire diff; each change
// told for consumers is an `ApiChange`, the shape the check, the API's version and its changelog read.
export {
  type ApiChange,
  type ApiDocument,
  describeChanges,
  type Level,
  PUBLISHED_PACKAGES,
} from "./api-changes.ts";
export type { ApiChangelog, ApiRelease } from "./changelog.ts";
export { CLIENT_PACKAGE, diffPackages, TYPES_PACKAGE } from "./packages.ts";
export {
  checkSpecDiff,
  SPEC_DIFF_FILES,
  type SpecDiffFiles,
  type SpecDiffReport,
  specDiff,
} from "./spec-diff.ts";
export { specDiffCommand } from "./spec-diff-command.ts";
export { diffTestModePackage, MOCK_PACKAGE } from "./test-mode.ts";
