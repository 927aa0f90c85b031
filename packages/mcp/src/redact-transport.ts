import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { redactMessage } from "./redact.js";

/** The transport, sending every message with the API key taken out. */
export function redactTransport<T extends Transport>(transport: T, apiKey: string): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(redactMessage(message, apiKey), options);
  return transport;
}
