// The data a fresh sandbox starts from: by default the spec's own examples, or a seed file.
// A seed is a JSON object of resource arrays, each optional: { "customers": [...], ... }, and
// optionally `rates`, changes to the default rate table: { "rates": { "EUR": "1.10" } }.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { isObject, type Operations } from "@org/payments-engine";
import type { SpecFacts } from "../lifecycle/spec-facts.js";
import { changedRates, DEFAULT_RATES, readRateChanges } from "../money/index.js";
import {
  COLLECTIONS,
  type CollectionName,
  type Resource,
  type SandboxData,
  type Stored,
} from "../store/sandbox-data.js";

export type Seed = Partial<Record<CollectionName, Resource[]>> & {
  /** Each currency's value in USD, for the currencies whose default it changes. */
  rates?: Record<string, string>;
};

/**
 * The seed of each document's examples, made once: a seed is only ever copied from, and a fresh
 * sandbox for each test would otherwise make it again.
 */
const defaultSeeds = new WeakMap<Operations, Seed>();

/** The seed of the operations' examples, made at its first use. */
export function defaultSeedOf(operations: Operations, facts: SpecFacts): Seed {
  let seed = defaultSeeds.get(operations);
  if (seed === undefined) {
    seed = defaultSeed(facts);
    defaultSeeds.set(operations, seed);
  }
  return seed;
}

export function defaultSeed(facts: SpecFacts): Seed {
  const items = (operationId: string): Resource[] => {
    const page = facts.example(operationId);
    return isObject(page) && Array.isArray(page.items) ? (page.items as Resource[]) : [];
  };
  const one = (operationId: string): Resource[] => {
    const example = facts.example(operationId);
    return isObject(example) ? [example as Resource] : [];
  };
  const customers = items("listCustomers");
  const documents = items("listDocuments");
  const identifications = one("createDirectIdentification");
  const signings = items("listSignings");
  for (const customer of customers.filter((c) => c.status === "Active")) {
    signings.push(...missingSignings(customer, documents, signings));
    identifications.push(...missingApproval(customer, identifications));
  }
  return {
    customers,
    identifications,
    signings,
    documents,
    autoramps: one("getAutorampByExternalId"),
    // The list's example first: the by-ids one is a shorter view of the same transaction, and
    // gives it a payout hash its status has not reached.
    autoramp_transactions: uniqueById([
      ...items("listAutorampTransactions"),
      ...items("listAutorampTransactionsByIds"),
    ]),
    fiat_addresses: one("getFiatAddress"),
    crypto_addresses: [],
    webhooks: items("listWebhooks"),
    fee_profiles: items("listFeeProfiles"),
  };
}

/**
 * The seed passed to startMock (an object), or read from `source` (see seed-file.ts); throws
 * naming what is wrong.
 */
export function readSeed(value: unknown, source = "seed object"): Seed {
  if (!isObject(value)) throw new Error(`The sandbox ${source} is not a JSON object`);
  const { rates, ...collections } = value;
  if (rates !== undefined) {
    const read = readRateChanges(rates);
    if ("problems" in read) {
      const listed = read.problems.map((problem) =>
        problem.code === "" ? problem.message : `"${problem.code}" ${problem.message}`,
      );
      throw new Error(`The sandbox ${source}: "rates" ${listed.join("; ")}`);
    }
  }
  for (const [name, list] of Object.entries(collections)) {
    if (!(COLLECTIONS as readonly string[]).includes(name)) {
      throw new Error(
        `The sandbox ${source} has an unknown collection "${name}"; known: ${COLLECTIONS.join(", ")} (and "rates")`,
      );
    }
    if (
      !Array.isArray(list) ||
      list.some((item) => !isObject(item) || typeof item.id !== "string")
    ) {
      throw new Error(
        `The sandbox ${source}: "${name}" must be an array of objects with a string id`,
      );
    }
  }
  return value as Seed;
}

/**
 * What a new key's partner starts with: the seed's documents to sign, its fee profiles and its
 * rates. The whole seed is the example key's (see partner.ts).
 */
export function starterSeed(seed: Seed): Seed {
  return {
    documents: seed.documents ?? [],
    fee_profiles: seed.fee_profiles ?? [],
    ...(seed.rates !== undefined && { rates: seed.rates }),
  };
}

/**
 * The starter seed as the partner's own copy: its fee profiles name the partner (`partner_id`),
 * not the example key's partner whose seed they were copied from.
 */
export function ownStarterSeed(starter: Seed, partner: string): Seed {
  if (starter.fee_profiles === undefined) return starter;
  return {
    ...starter,
    fee_profiles: starter.fee_profiles.map((profile) => ({ ...profile, partner_id: partner })),
  };
}

/** Fresh sandbox data holding the seed's resources, at partner level. */
export function dataFromSeed(seed: Seed): SandboxData {
  const collections = Object.fromEntries(
    COLLECTIONS.map((name) => [name, (seed[name] ?? []).map(storedFromSeed)]),
  ) as Record<CollectionName, Stored[]>;
  linkAutorampsToCustomers(collections);
  const settings =
    seed.rates === undefined
      ? {}
      : { rates: JSON.stringify(changedRates(DEFAULT_RATES, seed.rates)) };
  return { collections, idempotency: {}, events: [], settings };
}

function storedFromSeed(resource: Resource): Stored {
  return { resource: structuredClone(resource), sub_partner_id: null };
}

/** An autoramp does not name its customer; its transactions do. */
function linkAutorampsToCustomers(collections: Record<CollectionName, Stored[]>): void {
  for (const autoramp of collections.autoramps) {
    const transaction = collections.autoramp_transactions.find(
      (stored) => stored.resource.autoramp_id === autoramp.resource.id,
    );
    if (typeof transaction?.resource.customer_id === "string") {
      autoramp.customer_id = transaction.resource.customer_id;
    }
  }
}

/** Each resource once, as it first comes. */
function uniqueById(resources: Resource[]): Resource[] {
  const byId = new Map<string, Resource>();
  for (const resource of resources) if (!byId.has(resource.id)) byId.set(resource.id, resource);
  return [...byId.values()];
}

// An Active customer has signed every document and has an approved identification (the
// invariants of lifecycles.ts's CUSTOMER); the spec's examples show one signing of two documents
// and a pending identification, so the default seed adds what the customer's status implies.

/** The signings of the documents the customer has not signed, as signed when it became Active. */
function missingSignings(
  customer: Resource,
  documents: Resource[],
  signings: Resource[],
): Resource[] {
  const signed = new Set(
    signings.filter((s) => s.customer_id === customer.id).map((s) => s.document_id),
  );
  const added = documents
    .filter((document) => !signed.has(document.id))
    .map((document) => ({
      id: seedId("signing", customer.id, document.id),
      customer_id: customer.id,
      document_id: document.id,
      created_at: customer.updated_at,
      updated_at: customer.updated_at,
    }));
  listIds(customer, "signing_ids", added);
  return added;
}

/** The customer's approved identification, when none of `identifications` is: like its pending one. */
function missingApproval(customer: Resource, identifications: Resource[]): Resource[] {
  const own = identifications.filter((i) => i.customer_id === customer.id);
  if (own.some((identification) => identification.status === "Approved")) return [];
  const steps = isObject(own[0]?.step_status) ? Object.keys(own[0].step_status) : [];
  const approved: Resource = {
    id: seedId("identification", customer.id),
    customer_id: customer.id,
    created_at: customer.created_at,
    updated_at: customer.updated_at,
    status: "Approved",
    step_status: Object.fromEntries(
      steps.map((step) => [step, { result: "Approved", retry: false }]),
    ),
  };
  listIds(customer, "identification_ids", [approved]);
  return [approved];
}

function listIds(customer: Resource, field: string, added: Resource[]): void {
  const listed = Array.isArray(customer[field]) ? (customer[field] as unknown[]) : [];
  customer[field] = [...listed, ...added.map((resource) => resource.id)];
}

/** A UUID made of `parts`: the same seed has the same ids on every start and reset. */
function seedId(...parts: unknown[]): string {
  const hex = bytesToHex(sha256(utf8ToBytes(parts.join("/"))));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
