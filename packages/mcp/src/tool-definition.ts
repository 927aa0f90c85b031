/** What scripts/generate.ts writes for each operation, and what the server reads. */

/** A JSON Schema (2020-12 keywords, no `$schema`), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** Where an argument goes in the request: a parameter by its name, a body property, or the body. */
export type ArgumentPlace =
  | { in: "path" | "query" | "header"; name: string }
  | { in: "body"; name: string }
  | { in: "body-whole" };

/** Which document an operation comes from: the API's, or the sandbox's test mode. */
export type ToolGroup = "api" | "test-mode";

/** MCP's hints; one left out has MCP's default (destructive, not idempotent, open world). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  /** The operation's operationId. */
  name: string;
  group: ToolGroup;
  /** The operation's first tag: the README groups tools by it. */
  tag: string;
  /** The operation's summary. */
  title: string;
  /** The operation's description. */
  description: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  annotations: ToolAnnotations;
  /** Every rule of the operation's parameters and body: what a call's arguments are checked with. */
  inputSchema: JsonSchema & { type: "object" };
  /** The same rules as `tools/list` shows them: no examples, shorter prose, repeats shared. */
  listedInputSchema: JsonSchema & { type: "object" };
  /** The 2xx schema; a schema that is not an object is wrapped as `{ result }`. */
  outputSchema?: JsonSchema & { type: "object" };
  /** How the 2xx body becomes structured content. */
  output: "object" | "wrapped" | "none";
  /** Each argument's place in the request. */
  arguments: Record<string, ArgumentPlace>;
  /** A list that pages with `cursor`: it takes `all_pages`. */
  pages: boolean;
  /** The argument that carries the `IDEMPOTENCY-KEY` header, when the operation declares it. */
  idempotencyArgument?: string;
}
