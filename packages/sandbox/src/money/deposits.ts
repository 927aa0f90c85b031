// POST /_sandbox/autoramps/{id}/deposits: money arriving on an autoramp's deposit rail. It makes
// an autoramp transaction for the autoramp's customer, priced as a quote for the same pair and
// amount is at that moment (pricing.ts), which then settles on the sandbox clock (lifecycles.ts),
// with an event at each step.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { isObject } from "@org/payments-engine/http/is-object.js";
import {
  type AutorampTransaction,
  type Blockchain,
  DEPOSIT_ACCOUNT_TYPES,
  type DepositAccountType,
} from "@org/payments-types";
import { type Answer, notFound, ok, problemAnswer } from "../api/answer.js";
import {
  type Checked,
  invalidBody,
  invalidField,
  optionalEnum,
  optionalString,
  positiveDecimal,
  readFields,
  unknownFields,
} from "../control/control-input.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated } from "../lifecycle/changes.js";
import { outcomesOf, TRANSACTION } from "../lifecycle/lifecycles.js";
import { CRYPTO_DEPOSIT_ACCOUNT_TYPE, currencyFacts } from "./currencies.js";
import { type PriceCurrency, type PriceInput, PricingError, price } from "./pricing.js";
import { pricingData } from "./quotes.js";

const DEPOSIT_FIELDS = [
  "amount",
  "currency",
  "source_currency",
  "rail",
  "deposit_account_type",
  "outcome",
] as const;

/** Words an outcome may also be given in, as the issue that asked for it put them. */
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  completed: "Completed",
  failed: "PayoutFailed",
  rejected: "FundsRejected",
};

/** A currency as an autoramp lists it: fiat with `code`, crypto with `token` and `blockchain`. */
interface ListedCurrency {
  code?: string;
  token?: string;
  blockchain?: Blockchain;
  type?: string;
}

export async function deposit(
  context: ChangeContext,
  autorampId: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  const read = readFields({
    amount: positiveDecimal(body, "amount"),
    currency: currencyField(body),
    rail: optionalEnum(body, railField(body), DEPOSIT_ACCOUNT_TYPES),
    outcome: outcomeField(body),
  });
  if ("errors" in read) return invalidBody(read.errors);
  const extra = unknownFields(body, DEPOSIT_FIELDS);
  if (extra.length > 0) return invalidBody(extra);
  const fields = read.fields;
  const stored = await context.tx.find("autoramps", autorampId, undefined);
  if (stored === undefined) return notFound("path", "id", `no autoramp ${autorampId}`);
  const autoramp = stored.resource;
  if (autoramp.status !== "Approved") {
    return problemAnswer(422, "autoramp-not-approved", "Autoramp not approved", [
      {
        location: "path",
        field: "id",
        rule: "status",
        message: `the autoramp ${autorampId} is ${String(autoramp.status)}: deposits arrive on an Approved autoramp only (it is approved once its customer is Active)`,
      },
    ]);
  }
  const listed = (autoramp.source_currencies ?? []) as ListedCurrency[];
  const sourceListed =
    fields.currency === undefined
      ? listed[0]
      : listed.find((currency) => (currency.code ?? currency.token) === fields.currency);
  if (sourceListed === undefined) {
    const names = listed.map((currency) => currency.code ?? currency.token).join(", ");
    return invalidBody([
      invalidField(
        body.source_currency === undefined ? "currency" : "source_currency",
        "enum",
        `must be one of the autoramp's source currencies: ${names}`,
      ),
    ]);
  }
  const source = priceCurrency(sourceListed);
  const crypto = source.type === "Crypto";
  const rail = fields.rail ?? defaultRail(source);
  if ((rail === CRYPTO_DEPOSIT_ACCOUNT_TYPE) !== crypto) {
    const fits = crypto ? CRYPTO_DEPOSIT_ACCOUNT_TYPE : "a bank rail (not Wallet)";
    return invalidBody([invalidField("rail", "rail", `${source.code} is paid in through ${fits}`)]);
  }
  const destinationListed = autoramp.destination_currency as ListedCurrency;
  const priced = priceOrProblem({
    source,
    destination: priceCurrency({ ...destinationListed, type: "Crypto" }),
    amount_in: fields.amount,
    deposit_account_type: rail,
    is_third_party: autoramp.is_third_party === true,
    ...(await pricingData(context.tx)),
  });
  if ("status" in priced) return priced;
  const customerId = String(stored.customer_id ?? "");
  const at = context.clock.now();
  const transaction: AutorampTransaction & { id: string } = {
    id: randomUUID(),
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
    ...(crypto
      ? {
          source: {
            blockchain: source.chain as Blockchain,
            wallet_address: walletAddress(source.chain as Blockchain),
          },
        }
      : { payment_tracking: { imad: imadOf(at) } }),
  };
  const scope = stored.sub_partner_id ?? undefined;
  await context.tx.insert("autoramp_transactions", transaction, scope, customerId || undefined);
  const created = { resource: transaction, sub_partner_id: stored.sub_partner_id };
  const outcome = fields.outcome === "Completed" ? undefined : fields.outcome;
  await announceCreated(context, TRANSACTION, created, outcome);
  return ok(transaction);
}

/**
 * The source currency's code: `currency` (a code or token), or `source_currency` (the same, or a
 * currency object as the autoramp lists it).
 */
function currencyField(body: Record<string, unknown>): Checked<string | undefined> {
  if (body.currency !== undefined && body.source_currency !== undefined) {
    return {
      error: invalidField("source_currency", "oneOf", "send currency or source_currency, not both"),
    };
  }
  const field = body.source_currency === undefined ? "currency" : "source_currency";
  const value = body[field];
  if (isObject(value)) {
    const code = value.code ?? value.token;
    if (typeof code === "string" && code !== "") return { value: code };
    return { error: invalidField(field, "type", "must have a code (fiat) or a token (crypto)") };
  }
  return optionalString(body, field);
}

/** The rail's field: `rail`, or `deposit_account_type` as a quote names it. */
function railField(body: Record<string, unknown>): string {
  return body.rail === undefined && body.deposit_account_type !== undefined
    ? "deposit_account_type"
    : "rail";
}

/** The outcome: a status the transaction may end in, or completed, failed or rejected. */
function outcomeField(body: Record<string, unknown>): Checked<string | undefined> {
  const outcomes = ["Completed", ...outcomesOf(TRANSACTION)];
  const value = body.outcome;
  if (value === undefined) return { value: undefined };
  const named =
    typeof value === "string"
      ? (outcomes.find((outcome) => outcome.toLowerCase() === value.toLowerCase()) ??
        OUTCOME_WORDS[value.toLowerCase()])
      : undefined;
  if (named !== undefined) return { value: named };
  const words = Object.keys(OUTCOME_WORDS).join(", ");
  return {
    error: invalidField("outcome", "enum", `must be one of ${outcomes.join(", ")} (or ${words})`),
  };
}

/** The pricing of a currency listed by an autoramp: its code (fiat) or token and chain (crypto). */
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
    return invalidBody([invalidField(field, error.rule, error.message)]);
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
  return `0x${randomBytes(20).toString("hex")}`;
}

function randomText(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");
}
