// The TypeScript sample of a test-mode route: the call of @org/payments-mock's typed controls that
// sends it (`sandboxControls(url).setStatus("customers", id, "Active")`), with the route's
// examples. The controls name their functions for what they do, not by operationId, so the map
// below says which function sends which route; the build type-checks every sample against the
// package (tsconfig.samples.json), so a control that changes its name or arguments fails CI.
import type { OpenApiDocument, OperationEntry } from "@org/payments-spec";
import { parameterExample, requestBodyExample } from "@org/payments-spec";
import { defaultBaseUrl, SANDBOX_API_KEY, tsLiteral } from "./code-samples.ts";

const EVENT_FILTERS = ["id", "webhook_id", "topic", "customer_id", "delivered"];
const REQUEST_FILTERS = ["operation_id", "status", "fault_id", "idempotency_key"];

type Example = { path: Record<string, unknown>; query: Record<string, unknown>; body: unknown };

const json = (value: unknown) => tsLiteral(value);
const id = (example: Example) => JSON.stringify(example.path.id);

/** The control call of each route that has one, from the route's examples. */
const CALLS: Record<string, (example: Example) => string> = {
  getClock: () => "sandbox.clock()",
  advanceClock: ({ body }) => `sandbox.advanceClock(${json(body)})`,
  ...Object.fromEntries(
    (
      [
        ["setCustomerStatus", "customers"],
        ["setIdentificationStatus", "identifications"],
        ["setAutorampStatus", "autoramps"],
        ["setFiatAddressStatus", "addresses/fiat"],
        ["setAutorampTransactionStatus", "autoramp-transactions"],
      ] as const
    ).map(([operationId, collection]) => [
      operationId,
      (example: Example) => {
        const { status, force } = example.body as { status: string; force?: boolean };
        const options = force === undefined ? "" : `, { force: ${force} }`;
        return `sandbox.setStatus(${JSON.stringify(collection)}, ${id(example)}, ${JSON.stringify(status)}${options})`;
      },
    ]),
  ),
  simulateDeposit: (example) => `sandbox.deposit(${id(example)}, ${json(example.body)})`,
  addFiatAddress: (example) => `sandbox.addFiatAddress(${id(example)}, ${json(example.body)})`,
  addWebhook: ({ body }) => `sandbox.addWebhook(${json(body)})`,
  // events() follows the pages itself: only the filters go in.
  listEvents: ({ query }) => {
    const filter = Object.fromEntries(
      Object.entries(query).filter(([name]) => EVENT_FILTERS.includes(name)),
    );
    return `sandbox.events(${Object.keys(filter).length > 0 ? json(filter) : ""})`;
  },
  redeliverEvent: (example) => `sandbox.redeliver(${id(example)})`,
  getRates: () => "sandbox.rates()",
  setRates: ({ body }) => `sandbox.setRates(${json((body as { rates: unknown }).rates)})`,
  verifyQuote: ({ body }) => `sandbox.verifyQuote(${json(body)})`,
  resetSandbox: () => "sandbox.reset()",
  armFault: ({ body }) => `sandbox.armFault(${json(body)})`,
  listFaults: () => "sandbox.faults()",
  disarmFault: (example) => `sandbox.disarmFault(${id(example)})`,
  setRateLimit: ({ body }) => `sandbox.setRateLimit(${json(body)})`,
  // requests() follows the pages itself: only the filters go in.
  listRequests: ({ query }) => {
    const filter = Object.fromEntries(
      Object.entries(query).filter(([name]) => REQUEST_FILTERS.includes(name)),
    );
    return `sandbox.requests(${Object.keys(filter).length > 0 ? json(filter) : ""})`;
  },
  getReadiness: () => "sandbox.readiness()",
};

/** The routes the typed controls leave to a plain HTTP call (their curl sample shows it). */
export const WITHOUT_CONTROL = [
  // The event log's pages, a stream, which payments-mock listen reads; the receipts listen sends.
  "listEventLog",
  "streamEvents",
  "recordReceipts",
  "getQuoteSigningKey",
  "getTestModeDocument",
  // The API's document, which a generator in another language reads.
  "getApiDocument",
  // Asked by CI (curl) before its tests, not by a test's code.
  "getHealth",
];

/** The route's TypeScript sample, or undefined when no control sends it. */
export function controlSample(doc: OpenApiDocument, entry: OperationEntry): string | undefined {
  const call = CALLS[entry.operationId];
  if (!call) return undefined;
  const byLocation = (location: string) =>
    Object.fromEntries(
      entry.parameters
        .filter((p) => p.in === location && (location === "path" || p.example !== undefined))
        .map((p) => [p.name, parameterExample(doc, p)]),
    );
  const example: Example = {
    path: byLocation("path"),
    query: byLocation("query"),
    body: requestBodyExample(doc, entry.operation),
  };
  return [
    'import { sandboxControls } from "@org/payments-mock";',
    "",
    "const sandbox = sandboxControls(process.env.PAYMENTS_BASE_URL ?? " +
      `${JSON.stringify(defaultBaseUrl(doc))}, {`,
    `  apiKey: process.env.PAYMENTS_API_KEY ?? ${JSON.stringify(SANDBOX_API_KEY)},`,
    "});",
    "",
    "// A refused call throws a SandboxControlError with the status and the problem body.",
    `const answer = await ${call(example)};`,
    "console.log(answer);",
  ].join("\n");
}
