// One script of a front end against the sandbox's MSW handlers, run as it is in Node (setupServer)
// and in a browser page (setupWorker, bundled into the page): the project's client on the fetch it
// is given onboards a customer to Active and funds an onramp over a day of sandbox time, with a
// refused request and a rehearsed fault on the way. It returns what it saw, every answer the
// client got in order, what the controls answered and the deliveries the callback got, so that
// the two runs can be compared.
import { createPaymentsClient } from "@org/payments-client";
import type { WebhookDelivery } from "../../../src/msw/index.js";

/** The controls the script drives: Node's handlers' and the built browser handlers' alike. */
interface ScriptPartner {
  apiKey: string;
  addWebhook(options: {
    url: string;
    topics: ("CustomerStatus" | "TransactionStatus")[];
  }): Promise<unknown>;
  advanceClock(options: { seconds: number }): Promise<unknown>;
  deposit(autorampId: string, options: { amount: string }): Promise<{ id?: string }>;
  armFault(options: {
    operation_id: "createCustomer";
    status: number;
    times: number;
  }): Promise<unknown>;
  events(filter: { topic: "CustomerStatus" }): Promise<unknown>;
  requests(): Promise<unknown>;
}

export interface ScriptSandbox {
  /** The fetch the client sends with: MSW intercepts it. */
  fetch: (request: Request) => Promise<Response>;
  baseUrl: string;
  /** A partner of its own, its controls bound to its key. */
  partner: ScriptPartner;
  /** The deliveries the handlers' callback has got so far. */
  delivered: readonly WebhookDelivery[];
}

/** What the script saw, step by step. */
export type Transcript = { step: string; status?: number; body: unknown }[];

export interface ScriptResult {
  transcript: Transcript;
  customerStatus: string | undefined;
  transactionState: string | undefined;
  /** Each delivery to the script's webhook: its topic and the status it reports. */
  deliveries: { topic: string; status: string }[];
}

export async function onboardingScript({
  fetch,
  baseUrl,
  partner,
  delivered,
}: ScriptSandbox): Promise<ScriptResult> {
  const transcript: Transcript = [];
  const recorded = async (request: Request) => {
    const response = await fetch(request);
    const text = await response.clone().text();
    transcript.push({
      step: `${request.method} ${new URL(request.url).pathname}`,
      status: response.status,
      body: text === "" ? "" : JSON.parse(text),
    });
    return response;
  };
  const control = async <T>(step: string, work: () => Promise<T>) => {
    const body = await work();
    transcript.push({ step, body });
    return body;
  };
  const payments = createPaymentsClient({
    apiKey: partner.apiKey,
    baseUrl,
    fetch: recorded,
    maxRetries: 0,
  });

  await control("addWebhook", () =>
    partner.addWebhook({
      url: "https://app.test/events",
      topics: ["CustomerStatus", "TransactionStatus"],
    }),
  );
  const customer = await payments.customers.create({
    customer_type: "Business",
    email: "treasury@lumen.example",
    name: "Lumen Harbor Trading GmbH",
  });
  for (const { id } of (await payments.documents.listUnsigned(customer.id)).items) {
    if (id !== undefined) {
      await payments.signings.create(customer.id, { document_id: id, signed: true });
    }
  }
  await payments.identifications.createDirect(customer.id, { type: "Direct" });
  await control("advanceClock 10 minutes", () => partner.advanceClock({ seconds: 10 * 60 }));
  const listed = await payments.customers.list();
  const customerStatus = listed.items.find((item) => item.id === customer.id)?.status;

  const autoramp = await payments.autoramps.create({
    customer_id: customer.id,
    destination_currency: { blockchain: "Polygon", token: "USDC" },
    recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
    source_currencies: [{ code: "EUR", type: "Fiat" }],
  });
  const deposited = await control("deposit", () =>
    partner.deposit(autoramp.id, { amount: "1000.00" }),
  );
  await control("advanceClock a day", () => partner.advanceClock({ seconds: 24 * 60 * 60 }));
  const [transaction] = (
    await payments.autorampTransactions.listByIds({ ids: [deposited.id ?? ""] })
  ).items;

  // A request the API refuses, and a fault rehearsed: each answer is in the transcript.
  await payments.customers.create({ customer_type: "Person" } as never).catch(() => undefined);
  await control("armFault", () =>
    partner.armFault({ operation_id: "createCustomer", status: 503, times: 1 }),
  );
  await payments.customers
    .create({ customer_type: "Person", email: "a@b.example" })
    .catch(() => undefined);
  await payments.customers.create({ customer_type: "Person", email: "a@b.example" });

  await control("events", () => partner.events({ topic: "CustomerStatus" }));
  await control("requests", () => partner.requests());
  const deliveries = delivered
    .filter((delivery) => delivery.url === "https://app.test/events")
    .map((delivery) => {
      const event = delivery.event as { topic: string; data: { status?: string; state?: string } };
      return { topic: event.topic, status: event.data.status ?? event.data.state ?? "" };
    });
  transcript.push({ step: "deliveries", body: deliveries });
  return {
    transcript,
    customerStatus,
    transactionState: transaction?.state,
    deliveries,
  };
}

/**
 * The transcript with what differs from run to run made alike: ids (each the same placeholder
 * wherever it recurs), the request log's cursors (their numbers follow how its writes were
 * batched), times and durations, and the random parts of made-up values.
 */
export function normalised(transcript: Transcript): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(transcript)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
      if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
      return ids.get(id) as string;
    })
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/"(duration_ms|elapsed_ms)":\d+(\.\d+)?/g, '"$1":0')
    .replace(/"id":"\d{7,}"/g, '"id":"<cursor>"')
    .replace(/0x[0-9a-f]{40,64}/g, "<hex>")
    .replace(/\d{8}SANDBOX0\d{6}/g, "<imad>");
  return JSON.parse(text);
}
