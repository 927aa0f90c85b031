// A request checked against its operation: Prism's validators, remembered per schema, and their
// diagnostics in plain words as the mock's problem errors.
export { nonDecimalIntegers } from "./decimal-integers.js";
export {
  ERROR_SEVERITY,
  MEDIA_TYPE_RULE,
  type PrismDiagnostic,
  type ReceivedAt,
  toProblemErrors,
} from "./diagnostics.js";
export { namedForbiddenFields } from "./forbidden-fields.js";
export { cachedValidateInput } from "./input-validation.js";
export { bodySchema, isMissingBody, missingBodyErrors } from "./missing-body.js";
export { namedObjectRules } from "./object-rules.js";
export type { Received } from "./schema-messages.js";
export { cachedValidateSecurity } from "./security-validation.js";
