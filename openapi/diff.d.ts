import type { OpenApiDocument } from "./index.ts";

/** One classified change. `where` is `operation` and `location` together. */
export type SpecChange = {
  where: string;
  /** What changed and, for a breaking change, how to make it safely. */
  message: string;
  /** The id of the rule that classified it: a key of RULES. */
  rule: string;
  /** Such as `createCustomer (POST /customers)`, or `servers`. */
  operation: string;
  /** Such as `response 200 application/json body.status`; "" for the whole operation. */
  location: string;
};
export type SpecDiff = { breaking: SpecChange[]; additions: SpecChange[] };

/** Every rule: whether it breaks clients, and how to make such a change safely. */
export declare const RULES: Record<string, { breaking: boolean; fix?: string }>;

export declare function diffSpecs(base: OpenApiDocument, head: OpenApiDocument): SpecDiff;
