/**
 * The MCP server of one session: its tools (the API's operations, and the test mode's when the
 * base URL is a sandbox, as the toolsets select them; or the three of `--dynamic`), its prompts,
 * its instructions and its resources (both documents). It is the SDK's low-level `Server`:
 * the tools' schemas are JSON Schema generated from the documents, which `McpServer` would want
 * as zod schemas.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { argumentProblems, schemaValidator } from "./arguments.js";
import { callTool, type ToolResult } from "./call-tool.js";
import { DYNAMIC_TOOLS, describeOperation, searchOperations } from "./dynamic.js";
import { tools } from "./generated/tools.js";
import { ALL_PAGES_MAX_CHARACTERS, ALLOW_WRITES_FLAG, IDEMPOTENCY_WINDOW_MS } from "./limits.js";
import type { ServerContext } from "./options.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { documentResources, readDocument } from "./resources.js";
import type { SandboxState } from "./sandbox-probe.js";
import { setRequestHandler } from "./sdk-adapter.js";
import type { ToolDefinition } from "./tool-definition.js";
import { isSelected } from "./toolsets.js";
import { VERSION } from "./version.js";

const byName = new Map(tools.map((tool) => [tool.name, tool]));

/** What `tools/list` shows of a tool: its compact definition, without the server's own fields. */
const listed = new Map(
  tools.map((tool) => [
    tool.name,
    {
      // No `title`: a client shows the name, and a list is sent into every conversation.
      name: tool.name,
      description: tool.description,
      inputSchema: tool.listedInputSchema,
      annotations: tool.annotations,
    },
  ]),
);

const INSTRUCTIONS = `Tools for the partner payments API, one per operation (named by its operationId), each answering the API's JSON.
- The sandbox: a base URL that proves it is the offline sandbox of @org/payments-mock (it serves its test-mode document at GET /_sandbox/openapi.json). Each API key is a partner of its own there, with its own customers, clock, events, rates and faults; nothing crosses between keys.
- Time: the sandbox's clock, not the wall clock. Lifecycles (signings, identifications, settlements) and webhook deliveries happen when it moves: advanceClock runs everything due, and getClock reads it. The set…Status tools walk a status at once.
- Money: simulateDeposit pays into an Approved autoramp; its transaction settles as the clock moves (listAutorampTransactions).
- Events: listEvents is the log of every webhook delivery attempt (add a webhook with addWebhook first); redeliverEvent sends one again.
- Failure: armFault makes an operation answer an error, a delay or a lost answer (or a webhook topic's delivery duplicated, dropped or late); listFaults and disarmFault show and remove faults; getReadiness says what the integration has proven. setRateLimit and listRequests (the request log) come with --toolsets test-mode.
- Writes (POST, PATCH, PUT, DELETE) go only to the sandbox, unless the server was started with ${ALLOW_WRITES_FLAG}. An API write without idempotency_key gets one, reused for the same arguments within ${IDEMPOTENCY_WINDOW_MS / 60_000} minutes, so a retry happens once; pass a new idempotency_key to do it again.
- Lists page with cursor and page_size; all_pages: true reads on, up to ${ALL_PAGES_MAX_CHARACTERS.toLocaleString("en")} characters, and its cursor goes on from there.
- sub_partner_id (X-SUB-PARTNER-ID) acts for a sub-partner.
- Resources: the API's and the test mode's OpenAPI documents, every schema of the answers.
- Prompts: onboard_customer, fund_autoramp, rehearse_failure.`;

const DYNAMIC_INSTRUCTIONS = `${INSTRUCTIONS}
- This server lists three tools instead: search_operations finds an operation by words, describe_operation gives its input schema, call_operation calls it with arguments. The operations named above are called through call_operation.`;

/** Whether the tool is one the session offers, with the sandbox's state as it is known. */
function offered(tool: ToolDefinition, context: ServerContext, state: SandboxState): boolean {
  if (!isSelected(tool, { toolsets: context.toolsets, readOnly: context.readOnly })) return false;
  if (tool.group === "api") return true;
  return state.kind === "sandbox" && state.operations.has(tool.name);
}

const textResult = (text: string): ToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

export function createMcpServer(context: ServerContext): Server {
  const server = new Server(
    { name: "payments-mcp", title: "Partner payments API", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      instructions: context.dynamic ? DYNAMIC_INSTRUCTIONS : INSTRUCTIONS,
      jsonSchemaValidator: schemaValidator,
    },
  );
  let listedTestMode: boolean | undefined;

  setRequestHandler(server, ListToolsRequestSchema, async () => {
    const state = await context.probe.state();
    listedTestMode = state.kind === "sandbox";
    if (context.dynamic) return { tools: DYNAMIC_TOOLS };
    const shown = tools.filter((tool) => offered(tool, context, state));
    return { tools: shown.map((tool) => listed.get(tool.name)) };
  });

  /** The operation `name` as the session offers it, or why it does not. */
  const operation = async (name: unknown, field: string) => {
    const tool = typeof name === "string" ? byName.get(name) : undefined;
    if (tool && offered(tool, context, await context.probe.state())) return tool;
    return `${field} ${JSON.stringify(name)} is not an operation this server offers; search_operations finds one`;
  };

  const callDynamic = async (
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult> => {
    const own = DYNAMIC_TOOLS.find((tool) => tool.name === name);
    const problems = own ? argumentProblems(own.inputSchema, args) : [];
    if (problems.length > 0) return textResult(`${name} was not called: ${problems.join("; ")}.`);
    if (name === "search_operations") {
      const state = await context.probe.state();
      return searchOperations(
        tools.filter((tool) => offered(tool, context, state)),
        String(args.query),
      );
    }
    const tool = await operation(args.operation_id, "`operation_id`");
    if (typeof tool === "string") return textResult(`${name} was not called: ${tool}.`);
    if (name === "describe_operation") return describeOperation(tool);
    return callTool(context, tool, (args.arguments ?? {}) as Record<string, unknown>, signal);
  };

  setRequestHandler(server, CallToolRequestSchema, async (request, { signal }) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    let result: ToolResult;
    if (context.dynamic) {
      if (!DYNAMIC_TOOLS.some((tool) => tool.name === name)) {
        throw new McpError(ErrorCode.InvalidParams, `No tool named ${name}`);
      }
      result = await callDynamic(name, args, signal);
    } else {
      const tool: ToolDefinition | undefined = byName.get(name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named ${name}`);
      result = await callTool(context, tool, args, signal);
    }
    // A sandbox that answered only now (it was down when the tools were listed) brings the
    // test-mode tools: the client is told to list them again.
    if (listedTestMode === false && (await context.probe.state()).kind === "sandbox") {
      listedTestMode = true;
      if (!context.dynamic) await server.sendToolListChanged().catch(() => undefined);
    }
    return result;
  });

  setRequestHandler(server, ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));

  setRequestHandler(server, GetPromptRequestSchema, async (request) => {
    const prompt = getPrompt(request.params.name, request.params.arguments);
    if (typeof prompt === "string") throw new McpError(ErrorCode.InvalidParams, prompt);
    return prompt;
  });

  setRequestHandler(server, ListResourcesRequestSchema, async () => ({
    resources: documentResources(),
  }));

  // The documents are fixed resources; there are no templates, and a client that asks is told so.
  setRequestHandler(server, ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [],
  }));

  setRequestHandler(server, ReadResourceRequestSchema, async (request) => {
    const contents = readDocument(request.params.uri);
    if (!contents) {
      throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri}`);
    }
    return { contents: [contents] };
  });

  return server;
}
