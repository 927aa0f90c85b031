/**
 * The MCP server of one session: its tools (the API's operations, and the test mode's when the
 * base URL is a sandbox) and its resources (both documents). It is the SDK's low-level `Server`:
 * the tools' schemas are JSON Schema generated from the documents, which `McpServer` would want
 * as zod schemas.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { schemaValidator } from "./arguments.js";
import { type CallContext, callTool } from "./call-tool.js";
import { tools } from "./generated/tools.js";
import { ALLOW_WRITES_FLAG } from "./limits.js";
import { documentResources, readDocument } from "./resources.js";
import { setToolCallHandler } from "./tool-call-handler.js";
import type { ToolDefinition } from "./tool-definition.js";
import { VERSION } from "./version.js";

const byName = new Map(tools.map((tool) => [tool.name, tool]));

/** What `tools/list` shows of a tool: the generated definition less the server's own fields. */
const listed = new Map(
  tools.map((tool) => [
    tool.name,
    {
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
      annotations: tool.annotations,
    },
  ]),
);

const INSTRUCTIONS = `Tools for the partner payments API, one per operation, named by its operationId; each answers the API's JSON. Lists page with cursor and page_size (all_pages reads on). Writes (POST, PATCH) go only to a sandbox (a base URL that serves GET /_sandbox/openapi.json) unless the server was started with ${ALLOW_WRITES_FLAG}. Against a sandbox, test-mode tools drive it: its clock, simulations, events and reset. The API's and the test mode's OpenAPI documents are resources.`;

export function createMcpServer(context: CallContext): Server {
  const server = new Server(
    { name: "payments-mcp", title: "Partner payments API", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: schemaValidator,
    },
  );
  let listedTestMode: boolean | undefined;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const sandbox = (await context.probe.state()).kind === "sandbox";
    listedTestMode = sandbox;
    const shown = tools.filter((tool) => tool.group === "api" || sandbox);
    return { tools: shown.map((tool) => listed.get(tool.name)) };
  });

  setToolCallHandler(server, async (request, { signal }) => {
    const tool: ToolDefinition | undefined = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `No tool named ${request.params.name}`);
    }
    const result = await callTool(context, tool, request.params.arguments, signal);
    // A sandbox that answered only now (it was down when the tools were listed) brings the
    // test-mode tools: the client is told to list them again.
    if (listedTestMode === false && (await context.probe.state()).kind === "sandbox") {
      listedTestMode = true;
      await server.sendToolListChanged().catch(() => undefined);
    }
    return result;
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: documentResources(),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const contents = readDocument(request.params.uri);
    if (!contents) {
      throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri}`);
    }
    return { contents: [contents] };
  });

  return server;
}
