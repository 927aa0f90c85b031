// The shapes the guard's modules share: a change, the report that collects them, and the context
// each comparison runs in.
import type { OpenApiDocument } from "../document.ts";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI and JSON Schema nodes are open-ended JSON
export type Json = Record<string, any>;

/** One classified change. `where` is `operation` and `location` together. */
export type SpecChange = {
  where: string;
  /** What changed and, for a breaking change, how to make it safely. */
  message: string;
  /** The id of the rule that classified it: a key of RULES. */
  rule: string;
  /** Such as `createCustomer (POST /customers)`, `servers`, or a package such as `@org/payments-types`. */
  operation: string;
  /** Such as `response 200 application/json body.status`, or `export CustomerStatus`; "" for the whole operation. */
  location: string;
};

export type SpecDiff = { breaking: SpecChange[]; additions: SpecChange[] };

/** The side of the exchange a schema is on: clients send requests and read responses. */
export type Side = "request" | "response";

export type Report = {
  /** Records a change under `rule` (an id of RULES); `detail` says what changed, in words. */
  add(rule: string, operation: string, location: string, detail: string): void;
  readonly size: number;
  result(): SpecDiff;
};

type DocumentContext = { report: Report; base: OpenApiDocument; head: OpenApiDocument };

export type OperationContext = DocumentContext & { operation: string };

export type SchemaContext = OperationContext & {
  side: Side;
  visited: Set<string>;
  depth?: number;
};
