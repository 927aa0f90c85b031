// What a status change does besides itself: the fields a status fills in (identification steps,
// an autoramp's deposit rails, a fiat address's ownership, a transaction's payout trace) and the changes it causes in other
// resources (an approved identification activates its customer, an active customer's autoramps
// are approved). The transitions themselves are data in lifecycles.ts.
import { isObject } from "@org/payments-engine";
import type { IbanDepositInfo } from "@org/payments-types";
import { currencyFacts } from "../money/index.js";
import { randomHex, randomInt } from "../random/index.js";
import type { Resource, Stored } from "../store/sandbox-data.js";
import { type ChangeContext, customerIdOf } from "./change-context.js";
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  IDENTIFICATION_STEP_RESULTS,
  type Lifecycle,
  TRANSACTION,
} from "./lifecycles.js";
import { paysOutFiat } from "./ramp-type.js";

/** Walks a resource along its lifecycle to a status (changes.ts's walkTo). */
export type Walk = (
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  target: string,
) => Promise<boolean>;

/** Fills in what the resource's new status implies. */
export function enterStatus(
  context: ChangeContext,
  lifecycle: Lifecycle,
  resource: Resource,
): void {
  const status = String(resource.status);
  if (lifecycle === IDENTIFICATION && isObject(resource.step_status)) {
    const retry = IDENTIFICATION_STEP_RESULTS[status];
    if (retry === undefined) return;
    for (const name of Object.keys(resource.step_status)) {
      resource.step_status[name] = { result: status, retry };
    }
  } else if (lifecycle === AUTORAMP && status === "DepositAccountAdded") {
    if (!Array.isArray(resource.deposit_rails) || resource.deposit_rails.length === 0) {
      resource.deposit_rails = sandboxDepositRails(resource);
    }
  } else if (lifecycle === FIAT_ADDRESS) {
    // The bank's confirmation is what verifies the customer owns the account.
    resource.ownership_verified = status === "Registered";
  } else if (lifecycle === TRANSACTION && status === "PayoutInProgress") {
    payOut(resource, context.clock.now());
  }
}

/**
 * The trace of a transaction's payout: a fiat payout (an offramp's) is a wire, traced by its
 * `payment_tracking.omad`; a crypto payout, by its `payout_crypto_transaction.transaction_hash`.
 */
function payOut(transaction: Resource, at: Date): void {
  if (paysOutFiat(transaction)) {
    const tracking = isObject(transaction.payment_tracking) ? transaction.payment_tracking : {};
    tracking.omad ??= wireMessageId(at);
    transaction.payment_tracking = tracking;
  } else {
    transaction.payout_crypto_transaction ??= {
      transaction_hash: `0x${randomHex(32)}`,
    };
  }
}

/** A Fedwire-style message id of a wire sent at `at`: its date, a sandbox source and a sequence. */
function wireMessageId(at: Date): string {
  const date = at.toISOString().slice(0, 10).replaceAll("-", "");
  return `${date}SANDBOX0${String(randomInt(1_000_000)).padStart(6, "0")}`;
}

/** The changes a step of `stored` from `from` causes elsewhere. */
export async function afterStep(
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  from: string,
  walk: Walk,
): Promise<void> {
  const status = String(stored.resource.status);
  if (lifecycle === IDENTIFICATION && (status === "Approved" || from === "Approved")) {
    await settleCustomer(context, String(stored.resource.customer_id), walk);
  } else if (lifecycle === CUSTOMER && status === "Active") {
    await approveAutoramps(context, stored.resource.id, walk);
  } else if (lifecycle === AUTORAMP && status === "DepositAccountAdded") {
    const customerId = customerIdOf(AUTORAMP, stored);
    await context.events.broadcast(
      context.tx,
      "DepositAddressCreated",
      customerId,
      stored.resource,
      context.clock,
    );
  }
}

/**
 * The status a customer's documents and identifications call for: SigningsRequired while a
 * document is unsigned, then IdentificationRequired until an identification is approved, then
 * Active. A customer that a simulation suspended (or set to UserRequired) stays so.
 */
export async function settleCustomer(
  context: ChangeContext,
  customerId: string,
  walk: Walk,
): Promise<void> {
  const stored = await context.tx.find("customers", customerId, undefined);
  if (stored === undefined) return;
  const status = String(stored.resource.status);
  if (!["SigningsRequired", "IdentificationRequired", "Active"].includes(status)) return;
  const target =
    (await unsignedDocumentCount(context, customerId)) > 0
      ? "SigningsRequired"
      : (await hasApprovedIdentification(context, customerId))
        ? "Active"
        : "IdentificationRequired";
  if (target !== status) await walk(context, CUSTOMER, stored, target);
}

/** How many documents the customer has not signed. */
async function unsignedDocumentCount(context: ChangeContext, customerId: string): Promise<number> {
  const signings = await context.tx.list("signings", { customerId });
  const signed = new Set(signings.map((signing) => signing.resource.document_id));
  const documents = await context.tx.list("documents");
  return documents.filter((document) => !signed.has(document.resource.id)).length;
}

async function hasApprovedIdentification(
  context: ChangeContext,
  customerId: string,
): Promise<boolean> {
  const identifications = await context.tx.list("identifications", { customerId });
  return identifications.some((stored) => stored.resource.status === "Approved");
}

/** An active customer's autoramps that wait for it go to Approved. */
async function approveAutoramps(
  context: ChangeContext,
  customerId: string,
  walk: Walk,
): Promise<void> {
  for (const stored of await context.tx.list("autoramps", { customerId })) {
    if (stored.resource.status === "Created") await walk(context, AUTORAMP, stored, "Approved");
  }
}

/**
 * The sandbox's deposit instructions, one rail per way in: a crypto wallet on each blockchain of
 * its crypto sources (`blockchain`, `wallet_address`: the API leaves a CryptoWallet's fields "not
 * shown", and these are the names its crypto addresses use), and an IBAN when a source is fiat.
 * A token listed without a blockchain is paid in on the chain a deposit of it is priced on (its
 * first, currencies.ts). None is a real account.
 */
function sandboxDepositRails(autoramp: Resource): (IbanDepositInfo | SandboxCryptoWallet)[] {
  const sources = Array.isArray(autoramp.source_currencies) ? autoramp.source_currencies : [];
  const chains = new Set<string>();
  let fiat = false;
  for (const source of sources) {
    const chain = isObject(source) ? sourceChain(source) : undefined;
    if (chain !== undefined) chains.add(chain);
    else fiat = true;
  }
  const wallets = [...chains].map((blockchain) => ({
    blockchain,
    wallet_address: sandboxWalletAddress(blockchain),
  }));
  return fiat || wallets.length === 0 ? [sandboxIban(autoramp), ...wallets] : wallets;
}

/** The chain a crypto source is paid in on; undefined for a fiat one. */
function sourceChain(source: Record<string, unknown>): string | undefined {
  const code = typeof source.code === "string" ? source.code : source.token;
  const facts = typeof code === "string" ? currencyFacts(code) : undefined;
  if (facts?.type === "Fiat") return undefined;
  if (typeof source.blockchain === "string") return source.blockchain;
  return facts?.chains[0];
}

/** A CryptoWallet deposit rail as the sandbox gives it. */
interface SandboxCryptoWallet {
  blockchain: string;
  wallet_address: string;
}

/** A wallet address of the sandbox's on a chain: plainly not one that holds funds. */
function sandboxWalletAddress(blockchain: string): string {
  return EVM_CHAINS.has(blockchain)
    ? "0x5a4db0c000000000000000000000000000000000"
    : `SANDBOX${blockchain.toUpperCase()}DEPOSITWALLET`;
}

const EVM_CHAINS = new Set(["Ethereum", "Polygon", "Arbitrum", "Base"]);

/** The sandbox's IBAN deposit instructions: an IBAN that is clearly not a real account. */
function sandboxIban(autoramp: Resource): IbanDepositInfo {
  const recipient = (autoramp.recipient as { recipient?: { name?: string } } | undefined)
    ?.recipient;
  return {
    address: "Sandbox Street 1, Sandbox City",
    beneficiary_name: String(recipient?.name ?? ""),
    bic: "SANDBOXXXXX",
    iban: "XX00SANDBOX0000000000",
    name: "Sandbox Settlement Bank",
    phone: "+00 000 000000",
  };
}
