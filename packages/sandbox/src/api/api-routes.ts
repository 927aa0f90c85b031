// The API's operations over the stored data. Requests reach these only after Prism has
// validated them against the spec, so a body has its request type, and what the sandbox creates is
// typed as the spec's resource: a spec change the sandbox does not follow fails to compile here.
import { type ProblemLocation, quoted } from "@org/payments-engine";
import type {
  Autoramp,
  CreateAutorampRequest,
  CreateCustomerRequest,
  CreateSigningRequest,
  Customer,
  Identification,
  operations,
  RegisterHostedCryptoAddressRequest,
  RegisterSelfHostedWalletRequest,
  SelfHostedWallet,
  Signing,
  UpdateWebhookRequest,
  VerifiedCryptoAddress,
  Webhook,
} from "@org/payments-types";
import { type Answer, notFound, ok, problemAnswer } from "../answers/answer.js";
import { pageAnswer } from "../answers/page-answer.js";
import { arraySource, type Page, type PageQuery, page } from "../json/pages.js";
import { settleCustomer } from "../lifecycle/cascades.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated, walkTo } from "../lifecycle/changes.js";
import { AUTORAMP, CUSTOMER, IDENTIFICATION } from "../lifecycle/lifecycles.js";
import { rampTypeOf } from "../lifecycle/ramp-type.js";
import { newResourceId } from "../store/resource-id.js";
import type { Resource, Stored } from "../store/sandbox-data.js";
import type { WorkResult } from "./idempotency.js";
import type { RouteContext } from "./route-context.js";

/** The sandbox's answer to one operation of the spec. */
type Handler = (context: RouteContext) => Promise<WorkResult>;

const now = (context: RouteContext) => context.clock.now().toISOString();
/** A new resource's id, ordered by the sandbox time it is made at (see resource-id.ts). */
const newId = (context: RouteContext) => newResourceId(context.clock.now().getTime());
/** What a change made by the request works with. */
const changeContext = (context: RouteContext): ChangeContext => ({
  partnerId: context.partnerId,
  tx: context.store,
  clock: context.clock,
  events: context.events,
});
const resources = (list: Stored[]) => list.map((stored) => stored.resource);
/** A page of a list filtered in memory: for the lists that only the seed fills. */
const pageOf = (items: Resource[], query: PageQuery) => listed(page(arraySource(items), query));
/** The answer to a list: the page the store read, or its refusal of a cursor. */
const listed = async (read: Promise<Page>) => pageAnswer(await read);

/**
 * Every operation of the spec by its operationId: Prism has routed the request to one already, so
 * the sandbox dispatches on it rather than matching the path again. An operation the spec gains or
 * renames fails to compile here until the sandbox answers it.
 */
const handlers = {
  createCustomer,
  listCustomers,
  createDirectIdentification: (c) => createIdentification(c, "Direct"),
  createLinkIdentification: (c) => createIdentification(c, "Link"),
  createSigning,
  listSignings,
  listUnsignedDocuments,
  listDocuments: (c) => listed(c.store.page("documents", {}, c.query)),
  createAutoramp,
  getAutorampQuote,
  getAutorampByExternalId,
  listAutorampTransactions,
  listAutorampTransactionsByIds,
  getExchangeRate,
  listFiatAddresses,
  listFiatAddressesByCustomer,
  getFiatAddress,
  registerHostedCryptoAddress,
  registerSelfHostedCryptoAddress,
  listFeeProfiles: (c) => listed(c.store.page("fee_profiles", { scope: c.scope }, c.query)),
  listWebhooks: (c) => listed(c.store.page("webhooks", {}, c.query)),
  updateWebhook,
  pingWebhook,
} satisfies Record<keyof operations, Handler>;

/** The one list that pages backwards: the description lists `prev_cursor` on it alone. */
const PAGES_BACKWARDS = "listAutorampTransactions";

/**
 * The handler of the operation with this operationId; undefined for one the sandbox does not know.
 * A `prev_cursor` sent to another operation is a parameter it does not take: left out, as the
 * other parameters it does not declare are.
 */
export function handlerOf(operationId: string | undefined): Handler | undefined {
  if (operationId === undefined || !Object.hasOwn(handlers, operationId)) return undefined;
  const handler: Handler = handlers[operationId as keyof typeof handlers];
  if (operationId === PAGES_BACKWARDS) return handler;
  return (context) => {
    if (context.query.prev_cursor === undefined) return handler(context);
    const { prev_cursor: _, ...query } = context.query;
    return handler({ ...context, query });
  };
}

async function createCustomer(context: RouteContext): Promise<Answer> {
  const body = context.body as CreateCustomerRequest;
  const at = now(context);
  const id = newId(context);
  const changes = changeContext(context);
  // A new customer has signed nothing: every document waits for its signature.
  const documents = await context.store.list("documents");
  const customer: Customer = {
    id,
    created_at: at,
    updated_at: at,
    customer_type: body.customer_type,
    email: body.email,
    // name is required in a Customer but optional in the request: the email stands in for it.
    name: body.name ?? body.email,
    partner_id: context.partnerId,
    identification_ids: [],
    signing_ids: [],
    status: documents.length > 0 ? "SigningsRequired" : "IdentificationRequired",
    ...(body.external_id !== undefined && { external_id: body.external_id }),
  };
  const json = await context.store.insert("customers", customer, context.scope);
  await announceCreated(changes, CUSTOMER, { resource: customer, sub_partner_id: null });
  return ok(json);
}

function listCustomers({ query, scope, store }: RouteContext): Promise<Answer> {
  const search = query.search_term;
  return listed(store.page("customers", { scope, ...(search !== undefined && { search }) }, query));
}

/**
 * The customer with the id, in the request's scope, or the 404 answer naming where the id was.
 * Stored customers are the sandbox's own creates and the seed (the spec's examples).
 */
async function customerNamed(
  context: RouteContext,
  location: ProblemLocation,
  field: string,
  id: string,
): Promise<Customer | Answer> {
  const found = await context.store.find("customers", id, context.scope);
  return (
    (found?.resource as Customer | undefined) ??
    notFound(location, field, `no customer ${quoted(id)}`)
  );
}

/** The customer named by the path. */
const customerOf = (context: RouteContext, param = "id") =>
  customerNamed(context, "path", param, context.params[param] ?? "");

const customerInBody = (context: RouteContext) =>
  customerNamed(context, "body", "customer_id", String(context.body.customer_id ?? ""));

const customerInQuery = (context: RouteContext) =>
  customerNamed(context, "query", "customer_id", context.query.customer_id ?? "");

const isAnswer = <T extends { id: string }>(value: T | Answer): value is Answer =>
  "status" in value && "body" in value && !("id" in value);

/** The email's local part ending in this makes the customer's identifications Declined. */
const DECLINED_EMAIL_SUFFIX = "+declined";

async function createIdentification(
  context: RouteContext,
  kind: "Direct" | "Link",
): Promise<Answer> {
  const customer = await customerOf(context);
  if (isAnswer(customer)) return customer;
  const at = now(context);
  const id = newId(context);
  const pending = { result: "Pending", retry: false };
  // A Person has no company to check: only the questionnaire.
  const steps =
    customer.customer_type === "Person"
      ? { questionnaire: pending }
      : {
          company_beneficiaries: pending,
          company_data: pending,
          company_documents: pending,
          questionnaire: pending,
        };
  const identification: Identification = {
    id,
    customer_id: customer.id,
    created_at: at,
    updated_at: at,
    status: "Pending",
    ...(kind === "Direct"
      ? { step_status: steps }
      : { url: `https://verify.sandbox.invalid/session/${id}` }),
  };
  await touch(context, customer, "identification_ids", id, at);
  const json = await context.store.insert("identifications", identification, context.scope);
  const declined = String(customer.email).split("@")[0]?.endsWith(DECLINED_EMAIL_SUFFIX);
  await announceCreated(
    changeContext(context),
    IDENTIFICATION,
    { resource: identification, sub_partner_id: null },
    declined ? "Declined" : undefined,
  );
  return ok(json);
}

async function createSigning(context: RouteContext): Promise<Answer> {
  const customer = await customerOf(context);
  if (isAnswer(customer)) return customer;
  const body = context.body as CreateSigningRequest;
  const documentId = body.document_id;
  if (!(await context.store.find("documents", documentId, undefined))) {
    return notFound("body", "document_id", `no document ${quoted(documentId)}`);
  }
  if (body.signed !== true) {
    return problemAnswer(422, "not-signed", "Signing without consent", [
      {
        location: "body",
        field: "signed",
        rule: "consent",
        message: "must be true to record a signing",
      },
    ]);
  }
  // A document is signed once: signing it again answers the first signing.
  const signings = await context.store.list("signings", { customerId: customer.id });
  const earlier = signings.find((stored) => stored.resource.document_id === documentId);
  if (earlier !== undefined) return ok(earlier.resource);
  const at = now(context);
  const signing: Signing = {
    id: newId(context),
    customer_id: customer.id,
    document_id: documentId,
    created_at: at,
    updated_at: at,
  };
  await touch(context, customer, "signing_ids", signing.id, at);
  const json = await context.store.insert("signings", signing, context.scope);
  await context.store.markCounts([
    { kind: "fact", name: "document_signed", detail: documentId, n: 1 },
  ]);
  await settleCustomer(changeContext(context), customer.id, walkTo);
  return ok(json);
}

async function touch(
  context: RouteContext,
  customer: Customer,
  field: "identification_ids" | "signing_ids",
  id: string,
  at: string,
): Promise<void> {
  // A seed customer may lack the list.
  const ids = Array.isArray(customer[field]) ? customer[field] : [];
  customer[field] = [...ids, id];
  customer.updated_at = at;
  await context.store.update("customers", customer);
}

async function listSignings(context: RouteContext): Promise<Answer> {
  const customer = await customerOf(context);
  if (isAnswer(customer)) return customer;
  return listed(context.store.page("signings", { customerId: customer.id }, context.query));
}

async function listUnsignedDocuments(context: RouteContext): Promise<Answer> {
  const customer = await customerOf(context);
  if (isAnswer(customer)) return customer;
  const signings = await context.store.list("signings", { customerId: customer.id });
  const signed = new Set(signings.map((signing) => signing.resource.document_id));
  const documents = resources(await context.store.list("documents"));
  return pageOf(
    documents.filter((document) => !signed.has(document.id)),
    context.query,
  );
}

async function createAutoramp(context: RouteContext): Promise<Answer> {
  const customer = await customerInBody(context);
  if (isAnswer(customer)) return customer;
  const { store, scope } = context;
  const body = context.body as CreateAutorampRequest;
  // An autoramp whose deposits the sandbox could not price would be approved and then refuse each.
  const refused = (await quotes()).autorampRouteProblem(body);
  if (refused !== undefined) return refused;
  const iban = body.recipient_account.account_identifier?.iban ?? "";
  const isThirdParty = body.source_is_third_party === true;
  const autoramp: Autoramp = {
    id: newId(context),
    created_at: now(context),
    // Issued once the autoramp is authorized (its customer Active): see cascades.ts.
    deposit_rails: [],
    destination_currency: body.destination_currency,
    is_third_party: isThirdParty,
    recipient: {
      account_identifier: { type: "Iban", iban },
      is_third_party: isThirdParty,
      recipient: { name: customer.name, type: customer.customer_type },
    },
    source: "Standalone",
    source_currencies: body.source_currencies,
    status: "Created",
    ...pick(body, ["external_id", "name", "wire_message", "additional_partner_fee_in_bips"]),
  };
  const json = await store.insert("autoramps", autoramp, scope, customer.id);
  const stored = { resource: autoramp, sub_partner_id: null, customer_id: customer.id };
  const changes = changeContext(context);
  await announceCreated(changes, AUTORAMP, stored);
  if (customer.status !== "Active") return ok(json);
  // An active customer's autoramp is approved at once: the answer is as it is then.
  await walkTo(changes, AUTORAMP, stored, "Approved");
  return ok(autoramp);
}

/** The fields of `source` that it has. */
function pick<T extends object, K extends keyof T>(source: T, fields: K[]): Pick<T, K> {
  return Object.fromEntries(
    fields.filter((f) => source[f] !== undefined).map((f) => [f, source[f]]),
  ) as Pick<T, K>;
}

async function getAutorampByExternalId(context: RouteContext): Promise<Answer> {
  const externalId = context.params.external_id ?? "";
  // The newest one: the sandbox does not require external ids to be unique.
  const found = await context.store.newestByExternalId("autoramps", externalId);
  return found
    ? ok(found.resource)
    : notFound("path", "external_id", `no autoramp ${quoted(externalId)}`);
}

/** Pricing (and decimal.js, some 25 ms of a start) loads at the first price, as the mock's start skips it. */
const quotes = () => import("./quotes.js");

async function getAutorampQuote(context: RouteContext): Promise<Answer> {
  const customer = await customerInQuery(context);
  if (isAnswer(customer)) return customer;
  return (await quotes()).answerQuote(context, customer.id, context.clock.now());
}

async function getExchangeRate(context: RouteContext): Promise<Answer> {
  // The operation takes no X-SUB-PARTNER-ID (the description lists none): the customer is the
  // partner's, whatever sub-partner's it is and whatever such header is sent.
  const customer = await customerInQuery({ ...context, scope: undefined });
  if (isAnswer(customer)) return customer;
  return (await quotes()).answerExchangeRate(context);
}

async function listAutorampTransactions(context: RouteContext): Promise<Answer> {
  const { query } = context;
  const term = query.search_term?.toLowerCase();
  const filter = {
    scope: context.scope,
    ...(query.customer_id !== undefined && { customerId: query.customer_id }),
  };
  const listed = await context.store.list("autoramp_transactions", filter);
  const transactions = resources(listed).filter(
    (tx) =>
      (query.autoramp_id === undefined || tx.autoramp_id === query.autoramp_id) &&
      (query.ramp_type === undefined || rampTypeOf(tx) === query.ramp_type) &&
      (term === undefined || JSON.stringify(tx).toLowerCase().includes(term)),
  );
  return pageOf(transactions, query as PageQuery);
}

async function listAutorampTransactionsByIds(context: RouteContext): Promise<Answer> {
  const ids = new Set((context.query.ids ?? "").split(","));
  const transactions = resources(await context.store.list("autoramp_transactions"));
  return pageOf(
    transactions.filter((tx) => ids.has(tx.id)),
    context.query,
  );
}

async function listFiatAddresses(context: RouteContext): Promise<Answer> {
  const status = context.query.status ?? "Registered";
  const addresses = resources(await context.store.list("fiat_addresses", { scope: context.scope }));
  return pageOf(
    addresses.filter((address) => address.status === status),
    context.query,
  );
}

async function listFiatAddressesByCustomer(context: RouteContext): Promise<Answer> {
  const customer = await customerOf(context, "customer_id");
  if (isAnswer(customer)) return customer;
  const term = context.query.search_term?.toLowerCase();
  const filter = { scope: context.scope, customerId: customer.id };
  const addresses = resources(await context.store.list("fiat_addresses", filter)).filter(
    (address) => term === undefined || JSON.stringify(address).toLowerCase().includes(term),
  );
  return pageOf(addresses, context.query);
}

async function getFiatAddress(context: RouteContext): Promise<Answer> {
  const customer = await customerOf(context, "customer_id");
  if (isAnswer(customer)) return customer;
  const id = context.params.fiat_address_id ?? "";
  const found = await context.store.find("fiat_addresses", id, context.scope);
  return found && found.resource.customer_id === customer.id
    ? ok(found.resource)
    : notFound(
        "path",
        "fiat_address_id",
        `no fiat address ${quoted(id)} of customer ${customer.id}`,
      );
}

async function registerHostedCryptoAddress(context: RouteContext): Promise<Answer> {
  const customer = await customerInBody(context);
  if (isAnswer(customer)) return customer;
  const body = context.body as RegisterHostedCryptoAddressRequest;
  const address: VerifiedCryptoAddress = {
    id: newId(context),
    address_type: "Hosted",
    blockchain: body.blockchain,
    created_at: now(context),
    disabled: false,
    wallet_address: body.wallet_address,
    vasp_did: body.vasp_did,
  };
  return addressRegistered(context, address, customer.id);
}

async function registerSelfHostedCryptoAddress(context: RouteContext): Promise<Answer> {
  const customer = await customerInBody(context);
  if (isAnswer(customer)) return customer;
  const body = context.body as RegisterSelfHostedWalletRequest;
  const wallet: SelfHostedWallet = {
    id: newId(context),
    customer_id: customer.id,
    address: body.address,
    signature: body.signature,
    disabled: false,
    created_at: now(context),
  };
  return addressRegistered(context, wallet, customer.id);
}

/** Stores a registered crypto address and sends DepositAddressCreated for it. */
async function addressRegistered(
  context: RouteContext,
  address: VerifiedCryptoAddress | SelfHostedWallet,
  customerId: string,
): Promise<Answer> {
  const json = await context.store.insert("crypto_addresses", address, context.scope, customerId);
  await context.events.broadcast(
    context.store,
    "DepositAddressCreated",
    customerId,
    address,
    context.clock,
  );
  return ok(json);
}

async function webhookOf(context: RouteContext): Promise<Webhook | Answer> {
  const id = context.params.id ?? "";
  const found = await context.store.find("webhooks", id, undefined);
  return (
    (found?.resource as Webhook | undefined) ?? notFound("path", "id", `no webhook ${quoted(id)}`)
  );
}

async function updateWebhook(context: RouteContext): Promise<Answer> {
  const webhook = await webhookOf(context);
  if (isAnswer(webhook)) return webhook;
  const body = context.body as UpdateWebhookRequest;
  Object.assign(webhook, pick(body, ["enabled", "label", "topics", "url"]), {
    updated_at: now(context),
  });
  await context.store.update("webhooks", webhook);
  return ok(webhook);
}

/** The delivery happens after the transaction, so that a slow receiver holds no database lock. */
async function pingWebhook(context: RouteContext): Promise<WorkResult> {
  const webhook = await webhookOf(context);
  if (isAnswer(webhook)) return webhook;
  const customer = await customerInBody(context);
  if (isAnswer(customer)) return customer;
  const data = { webhook_id: webhook.id };
  return {
    afterCommit: async () => ok(await context.events.send(webhook, "Ping", customer.id, data)),
  };
}
