// Prism, adapted: its router, validators and mocker (one adapter file reaches into its internals),
// its request pipeline without fp-ts, and the spec's operations as Prism reads them.
export { bundledSpecPath } from "./bundled-spec.js";
export { operationsFromSnapshot, operationsSnapshot } from "./operations-snapshot.js";
export { pathParameters } from "./path-template.js";
export { pipeline } from "./pipeline.js";
export {
  type Components,
  type Mock,
  type Operation,
  type Operations,
  parseMIMEHeader,
  prismMock,
  prismRoute,
  type Route,
  requestBodySchema,
  type ValidateInput,
  type ValidateOutput,
  validateAgainstSchema,
  validateBody,
  validateHeaders,
  validateOutput,
  validatePath,
  validateQuery,
  validateSecurity,
  wildcardMediaTypeMatch,
} from "./prism-adapter.js";
export { readOperations } from "./read-operations.js";
