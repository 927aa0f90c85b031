/**
 * The common workflows as MCP prompts: what a person asks for, with the steps an assistant takes
 * on the sandbox, naming the operations (a tool each, or through call_operation with --dynamic).
 */

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The user message, from the arguments given (those left out have their defaults). */
  text(args: Record<string, string | undefined>): string;
}

const CALLS =
  "Call each operation by its tool (with --dynamic, through call_operation), and show me what each step answered.";

const PROMPTS: readonly Prompt[] = [
  {
    name: "onboard_customer",
    title: "Onboard a customer to Active",
    description:
      "Creates a customer on the sandbox, signs its documents, identifies it and moves the clock until it is Active.",
    arguments: [
      { name: "email", description: "The customer's email.", required: true },
      { name: "customer_type", description: "Person (default) or Business.", required: false },
      { name: "name", description: "The customer's name.", required: false },
    ],
    text: ({ email, customer_type, name }) =>
      [
        `Onboard a ${customer_type || "Person"} customer with the email ${email}${name ? ` and the name ${name}` : ""} on the sandbox, to the status Active:`,
        "1. createCustomer; its status is SigningsRequired.",
        "2. listUnsignedDocuments for it, then createSigning for each document, signed: true.",
        "3. createDirectIdentification (type Direct).",
        "4. advanceClock (seconds: 600) and read the customer again (listCustomers with its email as search_term) until it is Active; if it is not, say which status it is in and why.",
        "setCustomerStatus moves a status at once, if I ask for a shortcut.",
        CALLS,
      ].join("\n"),
  },
  {
    name: "fund_autoramp",
    title: "Fund an autoramp and follow its transaction",
    description:
      "Creates an autoramp for an Active customer, deposits money on the sandbox, and follows the transaction and its webhook events to the end.",
    arguments: [
      { name: "customer_id", description: "An Active customer's id.", required: true },
      {
        name: "amount",
        description: "The deposit, a decimal string (default 1000.00).",
        required: false,
      },
      { name: "currency", description: "The fiat source currency (default EUR).", required: false },
    ],
    text: ({ customer_id, amount, currency }) =>
      [
        `Fund an autoramp for the customer ${customer_id} with ${amount || "1000.00"} ${currency || "EUR"} on the sandbox, and follow the transaction:`,
        "1. addWebhook for the Transaction and TransactionStatus topics (an https://example.com URL is recorded, not sent), so the events are kept.",
        `2. createAutoramp from ${currency || "EUR"} to USDC on Polygon, paying out to an IBAN; it should be Approved (advanceClock if it is not yet).`,
        `3. simulateDeposit of ${amount || "1000.00"} on it.`,
        "4. advanceClock (seconds: 3600), then listAutorampTransactions for the autoramp: say each status it went through and where it ended.",
        "5. listEvents for the customer: the Transaction and TransactionStatus events, in order.",
        CALLS,
      ].join("\n"),
  },
  {
    name: "rehearse_failure",
    title: "Rehearse a failure and check readiness",
    description:
      "Arms a fault on an operation in the sandbox, makes the call fail and recover with the same idempotency key, then reads the readiness report.",
    arguments: [
      {
        name: "operation_id",
        description: "The API operation to fail (default createCustomer).",
        required: false,
      },
      { name: "status", description: "The error status to answer (default 503).", required: false },
    ],
    text: ({ operation_id, status }) =>
      [
        `Rehearse a failure of ${operation_id || "createCustomer"} on the sandbox, answered with HTTP ${status || "503"}, and check that my integration would recover:`,
        `1. armFault for operation_id ${operation_id || "createCustomer"}, status ${status || "503"}, times 1 (with retry_after if the status is 429 or 503).`,
        `2. Call ${operation_id || "createCustomer"} once with an idempotency_key of your choosing. The server's client retries a 408, 429 or 5xx with the same key, so the call should come back done once; any other status comes back as the tool's error: then call it again with the same idempotency_key.`,
        "3. listFaults: the fault is spent. disarmFault any that remains.",
        "4. getReadiness: say which checks pass, which fail and what is missing, and whether the recovery counted.",
        "If the sandbox lacks armFault or getReadiness (an older @org/payments-mock), say so and stop.",
        CALLS,
      ].join("\n"),
  },
];

/** What `prompts/list` shows. */
export function listPrompts() {
  return PROMPTS.map(({ name, title, description, arguments: args }) => ({
    name,
    title,
    description,
    arguments: args,
  }));
}

/** The prompt's messages, or the reason it cannot be given (no such prompt, a missing argument). */
export function getPrompt(
  name: string,
  args: Record<string, string> = {},
):
  | { description: string; messages: { role: "user"; content: { type: "text"; text: string } }[] }
  | string {
  const prompt = PROMPTS.find((candidate) => candidate.name === name);
  if (!prompt) {
    return `No prompt named ${name}; the prompts are ${PROMPTS.map((p) => p.name).join(", ")}`;
  }
  const missing = prompt.arguments.filter((arg) => arg.required && !args[arg.name]?.trim());
  if (missing.length > 0) {
    return `${name} needs ${missing.map((arg) => `\`${arg.name}\` (${arg.description})`).join(", ")}`;
  }
  return {
    description: prompt.description,
    messages: [{ role: "user", content: { type: "text", text: prompt.text(args) } }],
  };
}
