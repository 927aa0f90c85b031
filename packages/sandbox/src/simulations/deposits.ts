// POST /_sandbox/autoramps/{id}/deposits: money arriving on an autoramp's deposit rail. It makes
// an autoramp transaction for the autoramp's customer, priced as a quote for the same pair and
// amount is at that moment (pricing.ts), which then settles on the sandbox clock (lifecycles.ts),
// with an event at each step.

import { quoted } from "@org/payments-engine";
import type { AutorampTransaction, Blockchain, DepositAccountType } from "@org/payments-types";
import { type Answer, notFound, ok, problemAnswer } from "../answers/answer.js";
import { pricingData } from "../api/quotes.js";
import type { components } from "../generated/test-mode.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated } from "../lifecycle/changes.js";
import { TRANSACTION } from "../lifecycle/lifecycles.js";
import {
  CRYPTO_DEPOSIT_ACCOUNT_TYPE,
  currencyFacts,
  type PriceCurrency,
  type PriceInput,
  PricingError,
  price,
} from "../money/index.js";
import { randomHex, randomInt } from "../random/index.js";
import { newResourceId } from "../store/resource-id.js";
import type { Resource } from "../store/sandbox-data.js";
import type { SimulationRows } from "./simulation-rows.js";

/** The short words an outcome may also be given in, and the status each stands for. */
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  completed: "Completed",
  failed: "PayoutFailed",
  rejected: "FundsRejected",
};

type DepositBody = components["schemas"]["Deposit"];

/** A currency as an autoramp lists it: fiat with `code`, crypto with `token` and `blockchain`. */
interface ListedCurrency {
  code?: string;
  token?: string;
  blockchain?: Blockchain;
  type?: string;
}

/**
 * The deposit the body asks for (the document has checked each field, and that it names one
 * currency at most), or the 422 naming what the autoramp cannot take.
 */
export async function deposit(
  context: ChangeContext<SimulationRows>,
  autorampId: string,
  body: DepositBody,
): Promise<Answer> {
  const fields = depositFields(body);
  const stored = await approvedAutoramp(context, autorampId);
  if ("status" in stored) return stored;
  const autoramp = stored.resource;
  const source = sourceCurrency(autoramp, fields.currency, fields.chain, body);
  if ("status" in source) return source;
  const rail = railFor(source, fields.rail, body);
  if (typeof rail !== "string") return rail;
  const priced = priceOrProblem({
    source,
    // Fiat for an offramp (a fiat code as its `token`, without `blockchain`), crypto otherwise.
    destination: priceCurrency(autoramp.destination_currency as ListedCurrency),
    amount_in: fields.amount,
    deposit_account_type: rail,
    is_third_party: autoramp.is_third_party === true,
    ...(await pricingData(context.tx)),
  });
  if ("status" in priced) return priced;
  const customerId = String(stored.customer_id ?? "");
  const transaction = depositTransaction(autoramp, customerId, source, priced, context.clock.now());
  const scope = stored.sub_partner_id ?? undefined;
  await context.tx.insert("autoramp_transactions", transaction, scope, customerId || undefined);
  const created = { resource: transaction, sub_partner_id: stored.sub_partner_id };
  const ending = fields.outcome === "Completed" ? undefined : fields.outcome;
  await announceCreated(context, TRANSACTION, created, ending);
  return ok(transaction);
}

/** What the body asks for, its outcome as the status the transaction ends in. */
function depositFields(body: DepositBody) {
  return {
    amount: body.amount,
    currency: currencyCode(body),
    chain: chainNamed(body),
    rail: body.rail ?? body.deposit_account_type,
    outcome:
      body.outcome === undefined ? "Completed" : (OUTCOME_WORDS[body.outcome] ?? body.outcome),
  };
}

/**
 * The autoramp, stored; or the 404 for none, or the 422 for one that is not Approved or whose
 * customer is no longer Active (suspended, or its identification expired).
 */
async function approvedAutoramp(context: ChangeContext<SimulationRows>, autorampId: string) {
  const stored = await context.tx.find("autoramps", autorampId, undefined);
  if (stored === undefined) return notFound("path", "id", `no autoramp ${quoted(autorampId)}`);
  const status = stored.resource.status;
  if (status === "Approved") {
    const customer =
      stored.customer_id === undefined
        ? undefined
        : await context.tx.find("customers", stored.customer_id, undefined);
    const customerStatus = customer?.resource.status;
    if (customerStatus === undefined || customerStatus === "Active") return stored;
    return problemAnswer(422, "customer-not-active", "Customer not active", [
      {
        location: "path",
        field: "id",
        rule: "customer-status",
        message: `the autoramp ${autorampId}'s customer ${String(stored.customer_id)} is ${String(customerStatus)}: deposits arrive for an Active customer only`,
      },
    ]);
  }
  return problemAnswer(422, "autoramp-not-approved", "Autoramp not approved", [
    {
      location: "path",
      field: "id",
      rule: "status",
      message: `the autoramp ${autorampId} is ${String(status)}: deposits arrive on an Approved autoramp only (it is approved once its customer is Active)`,
    },
  ]);
}

/**
 * The source currency asked for (the autoramp's first when none is; the first of that code, or the
 * one on the `blockchain` a `source_currency` object names), or the 422 naming the field.
 */
function sourceCurrency(
  autoramp: Resource,
  currency: string | undefined,
  chain: string | undefined,
  body: DepositBody,
) {
  const listed = (autoramp.source_currencies ?? []) as ListedCurrency[];
  const sourceListed =
    currency === undefined
      ? listed[0]
      : listed.find(
          (each) =>
            (each.code ?? each.token) === currency &&
            (chain === undefined || each.blockchain === chain),
        );
  if (sourceListed !== undefined) return priceCurrency(sourceListed);
  const names = listed
    .map((each) => {
      const code = each.code ?? each.token;
      return each.blockchain === undefined ? code : `${code} on ${each.blockchain}`;
    })
    .join(", ");
  return refused(
    body.source_currency === undefined ? "currency" : "source_currency",
    "enum",
    `must be one of the autoramp's source currencies: ${names}`,
  );
}

/** The rail the money comes in through (the currency's by default), or the 422 for one that cannot carry it. */
function railFor(
  source: PriceCurrency,
  asked: DepositAccountType | undefined,
  body: DepositBody,
): DepositAccountType | Answer {
  const crypto = source.type === "Crypto";
  const rail = asked ?? defaultRail(source);
  if ((rail === CRYPTO_DEPOSIT_ACCOUNT_TYPE) === crypto) return rail;
  const fits = crypto ? CRYPTO_DEPOSIT_ACCOUNT_TYPE : "a bank rail (not Wallet)";
  const field =
    body.rail === undefined && body.deposit_account_type !== undefined
      ? "deposit_account_type"
      : "rail";
  return refused(field, "rail", `${source.code} is paid in through ${fits}`);
}

/** The transaction the deposit makes, priced, in its first status. */
function depositTransaction(
  autoramp: Resource,
  customerId: string,
  source: PriceCurrency,
  priced: ReturnType<typeof price>,
  at: Date,
): AutorampTransaction & { id: string } {
  return {
    id: newResourceId(at.getTime()),
    autoramp_id: autoramp.id,
    customer_id: customerId,
    created_at: at.toISOString(),
    source_amount: priced.amount_in,
    destination_amount: priced.amount_out,
    exchange_rate: priced.rate,
    fee: priced.fee.total_fee.amount,
    fee_settlement: priced.fee_settlement,
    fee_breakdown: priced.fee,
    is_third_party: autoramp.is_third_party === true,
    recipient: autoramp.recipient as AutorampTransaction["recipient"],
    state: "Pending",
    status: "FundsReceived",
    // The chain it was priced on: a token the autoramp lists without one is paid in on its first.
    ...(source.type === "Crypto"
      ? {
          source: {
            blockchain: priced.source.chain as Blockchain,
            wallet_address: walletAddress(priced.source.chain as Blockchain),
          },
        }
      : { payment_tracking: { imad: imadOf(at) } }),
  };
}

/** The blockchain a `source_currency` object names, if any. */
function chainNamed(body: DepositBody): string | undefined {
  const given: unknown = body.source_currency;
  if (typeof given !== "object" || given === null || !("blockchain" in given)) return undefined;
  return typeof given.blockchain === "string" ? given.blockchain : undefined;
}

/** The source currency's code: `currency`, or `source_currency` (a code, or a currency object). */
function currencyCode(body: DepositBody): string | undefined {
  const given = body.currency ?? body.source_currency;
  if (given === undefined || typeof given === "string") return given;
  return "code" in given ? given.code : given.token;
}

function refused(field: string, rule: string, message: string): Answer {
  return problemAnswer(422, "invalid-request", "Invalid request", [
    { location: "body", field, rule, message },
  ]);
}

/**
 * The pricing of a currency an autoramp names: its code (fiat) or token and chain (crypto). The
 * sandbox's currencies are what they are (`EUR` is fiat however it is named: an offramp's
 * `destination_currency` is `{ "token": "EUR" }`, as a quote names a fiat destination); another
 * is fiat only when it says `type: Fiat`.
 */
function priceCurrency(listed: ListedCurrency): PriceCurrency {
  const code = String(listed.code ?? listed.token ?? "");
  const type = currencyFacts(code)?.type ?? (listed.type === "Fiat" ? "Fiat" : "Crypto");
  return type === "Crypto" && listed.blockchain !== undefined
    ? { code, type, chain: listed.blockchain }
    : { code, type };
}

function defaultRail(source: PriceCurrency): DepositAccountType {
  const facts = currencyFacts(source.code);
  return facts?.type === "Fiat" ? facts.deposit_account_type : CRYPTO_DEPOSIT_ACCOUNT_TYPE;
}

/** The price, or the 422 naming the body field that keeps the deposit from one. */
function priceOrProblem(input: PriceInput) {
  try {
    return price(input);
  } catch (error) {
    if (!(error instanceof PricingError)) throw error;
    const field = error.field === "amount_in" ? "amount" : "currency";
    return refused(field, error.rule, error.message);
  }
}

/** A Fedwire-style IMAD of the incoming payment: its date, a sandbox source and a sequence. */
function imadOf(at: Date): string {
  const date = at.toISOString().slice(0, 10).replaceAll("-", "");
  return `${date}SANDBOX0${String(randomInt(1_000_000)).padStart(6, "0")}`;
}

/** A made-up sender address that looks like the chain's (not a valid one). */
function walletAddress(chain: Blockchain): string {
  if (chain === "Solana")
    return randomText("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 44);
  if (chain === "Stellar") return `G${randomText("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 55)}`;
  return `0x${randomHex(20)}`;
}

function randomText(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");
}
