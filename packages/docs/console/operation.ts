// What a console knows of one operation: made from the spec at build time
// (src/console-operations.ts) and passed to the page's script, so the page never parses
// the spec itself.

type ParameterLocation = "path" | "query" | "header";

export interface ConsoleParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** The schema's type; `array` is a repeated query parameter, entered comma-separated. */
  type: "string" | "integer" | "number" | "boolean" | "array";
  format?: string;
  /** The allowed values, for a field that offers them as a choice. */
  enum?: string[];
  /** What the field starts with: the spec's example, as text (an array's items comma-separated). */
  value: string;
  /** A hint for an empty optional field: its example or default. */
  placeholder?: string;
  description?: string;
}

export interface BodyExample {
  name: string;
  summary: string;
  value: unknown;
}

export interface ConsoleOperation {
  operationId: string;
  /** Upper case: GET, POST, PATCH. */
  method: string;
  path: string;
  summary: string;
  /** Path, query and header parameters the reader fills in (not the two headers below). */
  parameters: ConsoleParameter[];
  /** Whether the operation takes `X-SUB-PARTNER-ID`, which is entered once for the page. */
  subPartnerHeader?: string;
  /** The idempotency header's name, when the operation requires one: a fresh UUID per send. */
  idempotencyHeader?: string;
  /** The JSON request body's examples, first one shown; absent when there is no body. */
  body?: { required: boolean; examples: BodyExample[] };
}

/** How the page reaches the sandbox: through the docs server, or at a URL the reader gives. */
export interface ConsoleConfig {
  /** The same-origin path the docs server forwards to the sandbox (`sandbox/`), or "" when none. */
  proxy: string;
  /** The sandbox's own URL: where the proxy forwards, or the default a static page offers. */
  sandboxUrl: string;
}
