/**
 * `--dynamic`: three tools in place of one per operation, for clients with small limits. An
 * assistant finds operations by words (`search_operations`), reads one's input schema
 * (`describe_operation`), and calls it (`call_operation`) with the same checks, safety rules and
 * answers as the tool of that name.
 */
import type { ToolResult } from "./call-tool.js";
import type { ToolDefinition } from "./tool-definition.js";

/** The most operations one search answers. */
const MAX_FOUND = 10;

const OPERATION_ID = {
  type: "string",
  description: "An operationId, as search_operations answers it.",
} as const;

export const DYNAMIC_TOOLS = [
  {
    name: "search_operations",
    title: "Find operations",
    description:
      "Finds the API's operations (and, against a sandbox, its test mode's) whose operationId, summary or tags hold the words of `query`, best first. Answers each one's operationId, method and path, and summary; describe_operation gives its arguments.",
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: 200,
          description: "Words such as `create customer` or `clock`.",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "describe_operation",
    title: "Describe an operation",
    description:
      "An operation's description and input schema: what call_operation's `arguments` take for it.",
    inputSchema: {
      type: "object",
      properties: { operation_id: OPERATION_ID },
      required: ["operation_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "call_operation",
    title: "Call an operation",
    description:
      "Calls an operation with `arguments` as its input schema says, checked before anything is sent. Writes go only to a sandbox unless the server allows them; the answer is the API's JSON.",
    inputSchema: {
      type: "object",
      properties: {
        operation_id: OPERATION_ID,
        arguments: { type: "object", description: "The operation's arguments.", default: {} },
      },
      required: ["operation_id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
] as const;

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** `createCustomer` → `create customer`, so that the words of an id can be searched. */
const idWords = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, "$1 $2");

/** The operations whose words hold the query's, best first. */
export function searchOperations(tools: readonly ToolDefinition[], query: string): ToolResult {
  const wanted = words(query);
  const scored = tools
    .map((tool) => {
      const own = new Set(words(`${idWords(tool.name)} ${tool.title} ${tool.tag} ${tool.group}`));
      const matches = wanted.filter(
        (word) => own.has(word) || [...own].some((have) => have.startsWith(word)),
      ).length;
      return { tool, matches };
    })
    .filter(({ matches }) => matches > 0)
    .sort((a, b) => b.matches - a.matches);
  const found = scored.slice(0, MAX_FOUND).map(({ tool }) => ({
    operation_id: tool.name,
    method: tool.method,
    path: tool.path,
    summary: tool.title,
    ...(tool.group === "test-mode" && { test_mode: true }),
  }));
  const structured = { operations: found, more: Math.max(0, scored.length - found.length) };
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

export function describeOperation(tool: ToolDefinition): ToolResult {
  const structured = {
    operation_id: tool.name,
    method: tool.method,
    path: tool.path,
    summary: tool.title,
    description: tool.description,
    input_schema: tool.listedInputSchema,
    writes: tool.method !== "GET",
  };
  return {
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}
