/**
 * A tool answer's JSON text, written once. The text block of a result is the JSON of its
 * structured content; the stdio transport writes that same text for the structured content in
 * the message, instead of serialising the answer a second time (a page of customers is some
 * kilobytes, and every call pays for it).
 */

/** The JSON text of each structured content the server made, by the object. */
const texts = new WeakMap<object, string>();

/** `value` as compact JSON, kept beside it for `messageJson`. */
export function jsonTextOf(value: Record<string, unknown>): string {
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}

type Response = { jsonrpc: "2.0"; id: string | number; result: Record<string, unknown> };

function isResponse(message: unknown): message is Response {
  if (message === null || typeof message !== "object") return false;
  const { jsonrpc, id, result } = message as Partial<Response>;
  return (
    jsonrpc === "2.0" &&
    (typeof id === "string" || typeof id === "number") &&
    result !== null &&
    typeof result === "object" &&
    Object.keys(message).length === 3
  );
}

/**
 * The message's JSON text, as `JSON.stringify` writes it but for the order of the keys: a
 * response whose structured content came from `jsonTextOf` gets that text, not a second one.
 */
export function messageJson(message: unknown): string {
  if (!isResponse(message)) return JSON.stringify(message);
  const { structuredContent, ...rest } = message.result;
  const text =
    structuredContent !== null && typeof structuredContent === "object"
      ? texts.get(structuredContent)
      : undefined;
  if (text === undefined) return JSON.stringify(message);
  const head = JSON.stringify(rest);
  if (head === "{}") return JSON.stringify(message);
  const id = JSON.stringify(message.id);
  return `{"jsonrpc":"2.0","id":${id},"result":${head.slice(0, -1)},"structuredContent":${text}}}`;
}
