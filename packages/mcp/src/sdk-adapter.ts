/**
 * The one place that steps around the SDK (its version pinned in the workspace catalog): every
 * handler, tools/call's too, is set the way the SDK's `Protocol` sets handlers. The
 * low-level `Server` overrides `setRequestHandler` for tools/call, to parse each request a second
 * time and our result with zod on every call, and to hand on the parsed copy of the result. Our
 * results are made by `callTool` alone, and the SDK's client checks each one (every e2e test goes
 * through it). Without the copy, the structured content that reaches the transport is the object
 * whose JSON text its text block already holds (structured-content-text.ts): it is written, not serialised again.
 * Every handler is registered for any params and checks them itself: the SDK answers params its
 * schema refuses (`arguments: null`, say) with Internal error (-32603), this with Invalid params
 * (-32602), naming the field and the rule.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** What the SDK's `Protocol` hands a handler beside the request, of what this server uses. */
interface CallExtra {
  /** Aborted when the client cancels the call (notifications/cancelled) or the session closes. */
  signal: AbortSignal;
}

/** A zod schema of a request, as the SDK's are, seen only as far as checking goes. */
interface RequestSchema<T> {
  pick(keys: { method: true }): { passthrough(): unknown };
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * The schema of any request of `schema`'s method, whatever its params: registered with it, a
 * handler gets the request whole and checks it with `checkedRequest`.
 */
function anyParams<T>(schema: RequestSchema<T>): { method: string } {
  return schema.pick({ method: true }).passthrough() as { method: string };
}

/** `request` as `schema` reads it; params it refuses are Invalid params, naming field and rule. */
function checkedRequest<T>(schema: RequestSchema<T>, request: unknown): T {
  const checked = schema.safeParse(request);
  if (checked.success) return keepProtoArgument(request, checked.data);
  const method = (request as { method?: unknown }).method;
  const problems = checked.error.issues.map(
    (issue) => `${issue.path.join(".") || "the request"}: ${issue.message}`,
  );
  throw new McpError(ErrorCode.InvalidParams, `${String(method)}: ${problems.join("; ")}`);
}

type WithArguments = { params?: { arguments?: unknown } } | null | undefined;

/**
 * zod leaves a `__proto__` key out of the arguments it reads (setting it would set the copy's
 * prototype), so a call with one was sent without it, silently. The copy (of no prototype) gets
 * it back as a key of its own, for the tool's schema to refuse by name like any unknown one.
 */
function keepProtoArgument<T>(request: unknown, data: T): T {
  const given = (request as WithArguments)?.params?.arguments;
  const copy = (data as WithArguments)?.params?.arguments;
  if (given === null || typeof given !== "object" || copy === null || typeof copy !== "object") {
    return data;
  }
  const proto = Object.getOwnPropertyDescriptor(given, "__proto__");
  if (proto !== undefined && !Object.hasOwn(copy, "__proto__")) {
    Object.defineProperty(copy, "__proto__", { ...proto, enumerable: true });
  }
  return data;
}

const setOnProtocol = Protocol.prototype.setRequestHandler as (
  this: Server,
  schema: { method: string },
  handler: (request: unknown, extra: CallExtra) => Promise<unknown>,
) => void;

/**
 * Sets the handler of `schema`'s method on the SDK's `Protocol`, tools/call's too, the request's
 * params checked here first.
 */
export function setRequestHandler<T>(
  server: Server,
  schema: RequestSchema<T>,
  handler: (request: T, extra: CallExtra) => Promise<unknown>,
): void {
  setOnProtocol.call(server, anyParams(schema), async (request, extra) =>
    handler(checkedRequest(schema, request), extra),
  );
}
