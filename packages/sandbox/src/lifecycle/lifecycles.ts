// The sandbox's lifecycles, as data: per resource its states, its legal transitions, what causes
// each and the webhook topic each sends. The API description leaves every transition "not shown";
// this is sandbox behaviour, documented in the README, whose state diagrams are made from here
// (lifecycleDiagram) and tested against it.
import {
  AUTORAMP_STATUSES,
  CUSTOMER_STATUSES,
  FIAT_ADDRESS_STATUSES,
  IDENTIFICATION_STATUSES,
  type WebhookTopic,
} from "@org/payments-types";
import type { CollectionName, Resource } from "../store/sandbox-data.js";
import { paysOutFiat } from "./ramp-type.js";

/**
 * What makes a transition happen: a request of the API, another resource's change (a cascade),
 * a simulation route under /_sandbox/, or the sandbox clock.
 */
type Cause = "request" | "cascade" | "simulation" | "time";

export interface Transition {
  from: string;
  to: string;
  cause: Cause;
  /** What makes it happen, in words. */
  when: string;
  /** For a `time` transition: seconds of sandbox time after `from` was entered. */
  afterSeconds?: number;
  /**
   * For one of several `time` transitions out of a state: taken only when the resource's outcome
   * (a magic value or a simulation's `outcome`) is its `to`; the others are taken by default.
   */
  onlyAsOutcome?: boolean;
}

/** The resources of a collection, for an invariant that looks beyond its own resource. */
export type Collections = (name: CollectionName) => readonly Resource[];

/**
 * What holds of a resource as its requests, cascades and the clock leave it: its fields agree
 * with its status, and its status with the resources it depends on. A forced status may break
 * them, and so may a customer's simulated steps (UserRequired to SigningsRequired, Suspended to
 * Active), which act for the provider whatever the customer's documents say.
 */
interface Invariant {
  /** What holds, in words. */
  says: string;
  holds(resource: Resource, collections: Collections): boolean;
}

export interface Lifecycle {
  /** The resource's name in words. */
  resource: string;
  collection: CollectionName;
  /** The collection's path under /_sandbox/ (the API's own path segments). */
  route: string;
  states: readonly string[];
  /** The states a resource starts in, and when. */
  initial: { state: string; cause: Cause; when: string }[];
  /** The topic of the event its creation sends. */
  createdTopic: WebhookTopic;
  /** The topic of the event each status change sends. */
  statusTopic: WebhookTopic;
  transitions: Transition[];
  invariants: Invariant[];
}

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

export const CUSTOMER: Lifecycle = {
  resource: "customer",
  collection: "customers",
  route: "customers",
  states: CUSTOMER_STATUSES,
  initial: [
    { state: "SigningsRequired", cause: "request", when: "created while documents are unsigned" },
    { state: "IdentificationRequired", cause: "request", when: "created with no document to sign" },
  ],
  createdTopic: "CustomerCreated",
  statusTopic: "CustomerStatus",
  transitions: [
    {
      from: "UserRequired",
      to: "SigningsRequired",
      cause: "simulation",
      when: "the status route asks for it",
    },
    {
      from: "SigningsRequired",
      to: "IdentificationRequired",
      cause: "cascade",
      when: "the customer signs its last unsigned document",
    },
    {
      from: "IdentificationRequired",
      to: "Active",
      cause: "cascade",
      when: "an identification of the customer is approved",
    },
    {
      from: "Active",
      to: "IdentificationRequired",
      cause: "cascade",
      when: "its approved identification expires and no other is approved",
    },
    { from: "Active", to: "Suspended", cause: "simulation", when: "the status route asks for it" },
    { from: "Suspended", to: "Active", cause: "simulation", when: "the status route asks for it" },
  ],
  invariants: [
    {
      says: "SigningsRequired only while a document is unsigned",
      holds: (customer, collections) =>
        customer.status !== "SigningsRequired" || unsignedDocuments(customer, collections) > 0,
    },
    {
      says: "Active only with every document signed and an identification approved",
      holds: (customer, collections) =>
        customer.status !== "Active" ||
        (unsignedDocuments(customer, collections) === 0 &&
          hasApprovedIdentification(customer, collections)),
    },
    {
      says: "IdentificationRequired only with every document signed and no identification approved",
      holds: (customer, collections) =>
        customer.status !== "IdentificationRequired" ||
        (unsignedDocuments(customer, collections) === 0 &&
          !hasApprovedIdentification(customer, collections)),
    },
  ],
};

/** How many documents the customer has not signed. */
function unsignedDocuments(customer: Resource, collections: Collections): number {
  const signed = new Set(
    collections("signings")
      .filter((signing) => signing.customer_id === customer.id)
      .map((signing) => signing.document_id),
  );
  return collections("documents").filter((document) => !signed.has(document.id)).length;
}

function hasApprovedIdentification(customer: Resource, collections: Collections): boolean {
  return collections("identifications").some(
    (identification) =>
      identification.customer_id === customer.id && identification.status === "Approved",
  );
}

/** Review times of an identification, in sandbox seconds after the step before. */
export const IDENTIFICATION_REVIEW = { processed: MINUTE, inReview: MINUTE, decided: 3 * MINUTE };
/** An approved identification expires after this long. */
const IDENTIFICATION_VALIDITY_SECONDS = 365 * DAY;

export const IDENTIFICATION: Lifecycle = {
  resource: "identification",
  collection: "identifications",
  route: "identifications",
  states: IDENTIFICATION_STATUSES,
  initial: [
    { state: "Pending", cause: "request", when: "created (Direct or Link, for any customer)" },
  ],
  // An identification has no creation topic of its own: its status topic tells its progress.
  createdTopic: "IdentificationStatus",
  statusTopic: "IdentificationStatus",
  transitions: [
    {
      from: "Pending",
      to: "Processed",
      cause: "time",
      when: "the data is processed",
      afterSeconds: IDENTIFICATION_REVIEW.processed,
    },
    {
      from: "Processed",
      to: "PendingReview",
      cause: "time",
      when: "a reviewer takes it",
      afterSeconds: IDENTIFICATION_REVIEW.inReview,
    },
    {
      from: "PendingReview",
      to: "Approved",
      cause: "time",
      when: "the review passes (the default)",
      afterSeconds: IDENTIFICATION_REVIEW.decided,
    },
    {
      from: "PendingReview",
      to: "Declined",
      cause: "time",
      when: "the review fails (the customer's email local part ends in +declined)",
      afterSeconds: IDENTIFICATION_REVIEW.decided,
      onlyAsOutcome: true,
    },
    {
      from: "Approved",
      to: "Expired",
      cause: "time",
      when: "a year after its approval",
      afterSeconds: IDENTIFICATION_VALIDITY_SECONDS,
    },
  ],
  invariants: [
    {
      says: "once Processed, Approved, Declined or Expired, each step's result is that status",
      holds: (identification) =>
        IDENTIFICATION_STEP_RESULTS[String(identification.status)] === undefined ||
        !isRecord(identification.step_status) ||
        Object.values(identification.step_status).every(
          (step) => isRecord(step) && step.result === identification.status,
        ),
    },
  ],
};

/**
 * The identification statuses that settle each of its steps with that result, and whether the
 * customer may retry the step then.
 */
export const IDENTIFICATION_STEP_RESULTS: Readonly<Record<string, boolean>> = {
  Processed: false,
  Approved: false,
  Declined: true,
  Expired: true,
};

export const AUTORAMP: Lifecycle = {
  resource: "autoramp",
  collection: "autoramps",
  route: "autoramps",
  states: AUTORAMP_STATUSES,
  initial: [{ state: "Created", cause: "request", when: "created" }],
  createdTopic: "NewAutoramp",
  statusTopic: "RegisterAutorampStatus",
  transitions: [
    {
      from: "Created",
      to: "Authorized",
      cause: "cascade",
      when: "its customer is Active (at its creation, or when the customer becomes Active)",
    },
    {
      from: "Authorized",
      to: "DepositAccountAdded",
      cause: "cascade",
      when: "right after, its deposit rails issued (DepositAddressCreated)",
    },
    {
      from: "DepositAccountAdded",
      to: "Approved",
      cause: "cascade",
      when: "right after",
    },
    { from: "Approved", to: "EditPending", cause: "simulation", when: "the status route asks" },
    { from: "EditPending", to: "Approved", cause: "simulation", when: "the status route asks" },
    { from: "Created", to: "Rejected", cause: "simulation", when: "the status route asks" },
    { from: "Authorized", to: "Rejected", cause: "simulation", when: "the status route asks" },
    {
      from: "DepositAccountAdded",
      to: "Rejected",
      cause: "simulation",
      when: "the status route asks",
    },
    { from: "Approved", to: "Cancelled", cause: "simulation", when: "the status route asks" },
    { from: "EditPending", to: "Cancelled", cause: "simulation", when: "the status route asks" },
  ],
  invariants: [
    {
      says: "has deposit rails from DepositAccountAdded on",
      holds: (autoramp) =>
        !["DepositAccountAdded", "Approved", "EditPending", "Cancelled"].includes(
          String(autoramp.status),
        ) ||
        (Array.isArray(autoramp.deposit_rails) && autoramp.deposit_rails.length > 0),
    },
  ],
};

/** Registration times of a fiat address, in sandbox seconds after the step before. */
const FIAT_ADDRESS_REGISTRATION = { authorized: MINUTE, registered: 2 * MINUTE };

export const FIAT_ADDRESS: Lifecycle = {
  resource: "fiat address",
  collection: "fiat_addresses",
  route: "addresses/fiat",
  states: FIAT_ADDRESS_STATUSES,
  initial: [
    {
      state: "AuthorizationRequired",
      cause: "simulation",
      when: "added with POST /_sandbox/customers/id/fiat-addresses",
    },
  ],
  createdTopic: "NewBankAccount",
  statusTopic: "RegisterFiatAddressStatus",
  transitions: [
    {
      from: "AuthorizationRequired",
      to: "RegistrationPending",
      cause: "time",
      when: "the customer authorizes it (the default)",
      afterSeconds: FIAT_ADDRESS_REGISTRATION.authorized,
    },
    {
      from: "AuthorizationRequired",
      to: "AuthorizationFailed",
      cause: "time",
      when: "added with outcome AuthorizationFailed",
      afterSeconds: FIAT_ADDRESS_REGISTRATION.authorized,
      onlyAsOutcome: true,
    },
    {
      from: "RegistrationPending",
      to: "Registered",
      cause: "time",
      when: "the bank confirms it (the default)",
      afterSeconds: FIAT_ADDRESS_REGISTRATION.registered,
    },
    {
      from: "RegistrationPending",
      to: "RegistrationFailed",
      cause: "time",
      when: "added with outcome RegistrationFailed",
      afterSeconds: FIAT_ADDRESS_REGISTRATION.registered,
      onlyAsOutcome: true,
    },
  ],
  invariants: [
    {
      says: "ownership_verified is true once Registered, false before and on a failure",
      holds: (address) => address.ownership_verified === (address.status === "Registered"),
    },
  ],
};

/**
 * An autoramp transaction's `status` values, and the `state` each implies. The description names
 * only `FundsReviewInProgress` and `Pending`; the rest is the sandbox's.
 */
export const TRANSACTION_STATES: Readonly<Record<string, string>> = {
  FundsReceived: "Pending",
  FundsReviewInProgress: "Pending",
  ExchangeInProgress: "Processing",
  PayoutInProgress: "Processing",
  Completed: "Completed",
  FundsRejected: "Failed",
  PayoutFailed: "Failed",
  Refunded: "Refunded",
};

/** Settlement times of a transaction, in sandbox seconds after the step before. */
export const TRANSACTION_SETTLEMENT = {
  inReview: MINUTE,
  reviewed: 10 * MINUTE,
  exchanged: MINUTE,
  paidOut: 5 * MINUTE,
  refunded: 60 * MINUTE,
};

export const TRANSACTION: Lifecycle = {
  resource: "autoramp transaction",
  collection: "autoramp_transactions",
  route: "autoramp-transactions",
  states: Object.keys(TRANSACTION_STATES),
  initial: [
    {
      state: "FundsReceived",
      cause: "simulation",
      when: "a deposit arrives (POST /_sandbox/autoramps/id/deposits)",
    },
  ],
  createdTopic: "Transaction",
  statusTopic: "TransactionStatus",
  transitions: [
    {
      from: "FundsReceived",
      to: "FundsReviewInProgress",
      cause: "time",
      when: "the funds review starts",
      afterSeconds: TRANSACTION_SETTLEMENT.inReview,
    },
    {
      from: "FundsReviewInProgress",
      to: "ExchangeInProgress",
      cause: "time",
      when: "the funds pass the review (the default)",
      afterSeconds: TRANSACTION_SETTLEMENT.reviewed,
    },
    {
      from: "FundsReviewInProgress",
      to: "FundsRejected",
      cause: "time",
      when: "deposited with outcome FundsRejected",
      afterSeconds: TRANSACTION_SETTLEMENT.reviewed,
      onlyAsOutcome: true,
    },
    {
      from: "ExchangeInProgress",
      to: "PayoutInProgress",
      cause: "time",
      when: "the exchange is done, the payout sent",
      afterSeconds: TRANSACTION_SETTLEMENT.exchanged,
    },
    {
      from: "PayoutInProgress",
      to: "Completed",
      cause: "time",
      when: "the payout arrives (the default)",
      afterSeconds: TRANSACTION_SETTLEMENT.paidOut,
    },
    {
      from: "PayoutInProgress",
      to: "PayoutFailed",
      cause: "time",
      when: "deposited with outcome PayoutFailed",
      afterSeconds: TRANSACTION_SETTLEMENT.paidOut,
      onlyAsOutcome: true,
    },
    {
      from: "FundsRejected",
      to: "Refunded",
      cause: "time",
      when: "the rejected funds are sent back",
      afterSeconds: TRANSACTION_SETTLEMENT.refunded,
    },
  ],
  invariants: [
    {
      says: "its state is the one its status implies",
      holds: (transaction) => transaction.state === TRANSACTION_STATES[String(transaction.status)],
    },
    {
      says: "has its source and destination amounts from the deposit on",
      holds: (transaction) =>
        isRecord(transaction.source_amount) && isRecord(transaction.destination_amount),
    },
    {
      says: "has its payout's trace once the payout is sent (PayoutInProgress on), none before: an OMAD for fiat, a hash for crypto",
      holds: (transaction) => {
        const traced = paysOutFiat(transaction)
          ? isRecord(transaction.payment_tracking) &&
            transaction.payment_tracking.omad !== undefined
          : transaction.payout_crypto_transaction !== undefined;
        return traced === PAID_OUT.includes(String(transaction.status));
      },
    },
  ],
};

/** The statuses of a transaction whose payout was sent. */
const PAID_OUT: readonly string[] = ["PayoutInProgress", "Completed", "PayoutFailed"];

export const LIFECYCLES = [CUSTOMER, IDENTIFICATION, AUTORAMP, FIAT_ADDRESS, TRANSACTION] as const;

export function lifecycleOf(collection: CollectionName): Lifecycle | undefined {
  return LIFECYCLES.find((lifecycle) => lifecycle.collection === collection);
}

/**
 * The shortest legal path from `from` to `to` (the states after `from`, `to` last), or undefined
 * when `to` cannot be reached. Any transition counts, whatever its cause: the status route
 * simulates the causes.
 */
export function pathBetween(lifecycle: Lifecycle, from: string, to: string): string[] | undefined {
  const cameFrom = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift() as string;
    for (const transition of lifecycle.transitions) {
      if (transition.from !== state || cameFrom.has(transition.to)) continue;
      cameFrom.set(transition.to, state);
      if (transition.to === to) return unwind(cameFrom, from, to);
      queue.push(transition.to);
    }
  }
  return undefined;
}

function unwind(cameFrom: Map<string, string>, from: string, to: string): string[] {
  const path = [to];
  for (
    let state = cameFrom.get(to) as string;
    state !== from;
    state = cameFrom.get(state) as string
  ) {
    path.unshift(state);
  }
  return path;
}

/** Every state a legal path leads to from `from`, in the lifecycle's order. */
export function reachableFrom(lifecycle: Lifecycle, from: string): string[] {
  return lifecycle.states.filter(
    (state) => state !== from && pathBetween(lifecycle, from, state) !== undefined,
  );
}

/**
 * The `time` transition out of `state` that the sandbox clock takes, given the resource's chosen
 * outcome; undefined when time does not move the resource on from there.
 */
export function timedTransition(
  lifecycle: Lifecycle,
  state: string,
  outcome: string | undefined,
): Transition | undefined {
  const timed = lifecycle.transitions.filter((t) => t.from === state && t.cause === "time");
  return (
    timed.find((t) => t.onlyAsOutcome === true && t.to === outcome) ??
    timed.find((t) => t.onlyAsOutcome !== true)
  );
}

/** The outcomes a simulation may choose for the resource: the `to` of its optional transitions. */
export function outcomesOf(lifecycle: Lifecycle): string[] {
  return lifecycle.transitions.filter((t) => t.onlyAsOutcome === true).map((t) => t.to);
}

/** The lifecycle as a Mermaid state diagram, as the README shows it. */
export function lifecycleDiagram(lifecycle: Lifecycle): string {
  const lines = ["stateDiagram-v2"];
  for (const initial of lifecycle.initial) {
    lines.push(`    [*] --> ${initial.state}: ${initial.cause}, ${label(initial.when)}`);
  }
  for (const t of lifecycle.transitions) {
    const after = t.afterSeconds === undefined ? "" : ` after ${duration(t.afterSeconds)}`;
    lines.push(`    ${t.from} --> ${t.to}: ${t.cause}${after}, ${label(t.when)}`);
  }
  return lines.join("\n");
}

/** Words as a Mermaid transition label takes them: no quotes, braces, colons or semicolons. */
function label(words: string): string {
  return words.replace(/["{}]/g, "").replace(/[:;]/g, ",");
}

function duration(seconds: number): string {
  if (seconds % DAY === 0) return `${seconds / DAY} d`;
  if (seconds % MINUTE === 0) return `${seconds / MINUTE} min`;
  return `${seconds} s`;
}

/**
 * A JSON object. This module imports no other of the sandbox's (the docs build bundles it alone to
 * draw the lifecycles), hence its own.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
