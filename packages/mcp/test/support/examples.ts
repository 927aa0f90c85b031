// Arguments for a tool made from its operation's examples in the spec, with the ids of resources
// a test created put in place of the examples' ids (which name the seed's resources).
import {
  listOperations,
  type OpenApiDocument,
  parameterExample,
  requestBodyExample,
} from "@org/payments-spec";
import { headerArgument } from "../../scripts/generate.ts";

/** Ids of what the test made, by the argument name they go in (per operation where it differs). */
export type KnownIds = Record<string, unknown>;

/** Arguments left out: the server makes the idempotency key, and the seed's ids are not ours. */
const LEFT_OUT = new Set(["idempotency_key", "sub_partner_id", "cursor", "prev_cursor"]);

export function exampleArguments(
  doc: OpenApiDocument,
  operationId: string,
  known: KnownIds,
): Record<string, unknown> {
  const entry = listOperations(doc).find((candidate) => candidate.operationId === operationId);
  if (!entry) throw new Error(`no operation ${operationId}`);
  const args: Record<string, unknown> = {};
  for (const parameter of entry.parameters) {
    const name = parameter.in === "header" ? headerArgument(parameter.name) : parameter.name;
    if (LEFT_OUT.has(name)) continue;
    const example = parameterExample(doc, parameter);
    if (example !== undefined) args[name] = example;
  }
  const body = requestBodyExample(doc, entry.operation);
  if (body !== null && typeof body === "object" && !Array.isArray(body)) Object.assign(args, body);
  for (const name of Object.keys(args)) {
    const id = known[`${operationId}.${name}`] ?? known[name];
    if (id !== undefined) args[name] = id;
  }
  return args;
}
