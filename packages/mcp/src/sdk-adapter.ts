/**
 * The one place that steps around the SDK (its version pinned in the workspace catalog):
 * tools/call's handler is set the way the SDK's `Protocol` sets every other handler. The
 * low-level `Server` overrides `setRequestHandler` for tools/call, to parse each request a second
 * time and our result with zod on every call, and to hand on the parsed copy of the result. Our
 * results are made by `callTool` alone, and the SDK's client checks each one (every e2e test goes
 * through it). Without the copy, the structured content that reaches the transport is the object
 * whose JSON text its text block already holds (structured-content-text.ts): it is written, not serialised again.
 * It is registered for any params and checks them itself: the SDK answers params its schema
 * refuses (`arguments: null`, say) with Internal error (-32603), this with Invalid params (-32602).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "./call-tool.js";

/** What the SDK's `Protocol` hands a handler beside the request, of what this server uses. */
interface CallExtra {
  /** Aborted when the client cancels the call (notifications/cancelled) or the session closes. */
  signal: AbortSignal;
}

type ToolCallHandler = (request: CallToolRequest, extra: CallExtra) => Promise<ToolResult>;

/** A tools/call request with whatever params it has: the method alone is checked, the rest kept. */
const ANY_TOOL_CALL = CallToolRequestSchema.pick({ method: true }).passthrough();

const setOnProtocol = Protocol.prototype.setRequestHandler as (
  this: Server,
  schema: typeof ANY_TOOL_CALL,
  handler: (request: unknown, extra: CallExtra) => Promise<ToolResult>,
) => void;

export function setToolCallHandler(server: Server, handler: ToolCallHandler): void {
  setOnProtocol.call(server, ANY_TOOL_CALL, async (request, extra) => {
    const checked = CallToolRequestSchema.safeParse(request);
    if (!checked.success) {
      const problems = checked.error.issues.map(
        (issue) => `${issue.path.join(".") || "the request"}: ${issue.message}`,
      );
      throw new McpError(ErrorCode.InvalidParams, `tools/call: ${problems.join("; ")}`);
    }
    return handler(checked.data, extra);
  });
}
