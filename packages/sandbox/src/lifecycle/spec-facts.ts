// What the sandbox takes from the spec: the examples its default seed is made of, and the
// status enums its control route accepts. Read from Prism's operations, whose $refs are resolved.
import type { Operations } from "@org/payments-engine";

type Schema = Record<string, unknown>;

export interface SpecFacts {
  /** The first example of the operation's 200 response, if it has one. */
  example(operationId: string): unknown;
  /** The `status` enum of the operation's 200 resource (of its items, for a list); undefined if open. */
  statusEnum(operationId: string): string[] | undefined;
}

export function readSpecFacts(operations: Operations): SpecFacts {
  const success = (operationId: string) =>
    operations
      .find((operation) => operation.iid === operationId)
      ?.responses.find((response) => response.code === "200")?.contents?.[0];
  return {
    example: (operationId) => {
      const example = success(operationId)?.examples?.[0];
      return example && "value" in example ? structuredClone(example.value) : undefined;
    },
    statusEnum: (operationId) => statusEnumOf(success(operationId)?.schema as Schema | undefined),
  };
}

function statusEnumOf(schema: Schema | undefined): string[] | undefined {
  if (schema === undefined) return undefined;
  const properties = schema.properties as Record<string, Schema> | undefined;
  const status = properties?.status?.enum;
  if (Array.isArray(status)) return status as string[];
  if (properties?.items?.items) return statusEnumOf(properties.items.items as Schema);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    for (const part of (schema[key] as Schema[] | undefined) ?? []) {
      const found = statusEnumOf(part);
      if (found) return found;
    }
  }
  return undefined;
}
