// Arguments for a tool made from its operation's examples in the spec, with the ids of resources
// a test created put in place of the examples' ids (which name the seed's resources).
import {
  listOperations,
  type OpenApiDocument,
  parameterExample,
  requestBodyExample,
} from "@org/payments-spec";
import { headerArgument } from "../../scripts/generate.ts";
import { tools } from "../../src/generated/tools.ts";

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
    // An optional parameter goes in only with an example of its own: a schema's (an enum's first
    // value, say) would add what the example call does not mean, such as a chain for EUR.
    const own = parameter.example ?? Object.values(parameter.examples ?? {})[0];
    if (!parameter.required && own === undefined) continue;
    const example = parameterExample(doc, parameter);
    if (example !== undefined) args[name] = example;
  }
  const body = requestBodyExample(doc, entry.operation);
  const whole = Object.values(
    tools.find((tool) => tool.name === operationId)?.arguments ?? {},
  ).some((place) => place.in === "body-whole");
  if (whole) args.body = body;
  else if (body !== null && typeof body === "object") Object.assign(args, body);
  for (const name of Object.keys(args)) {
    const id = known[`${operationId}.${name}`] ?? known[name];
    if (id !== undefined) args[name] = id;
  }
  return args;
}
