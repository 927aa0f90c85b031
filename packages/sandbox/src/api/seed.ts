// The data a fresh sandbox starts from: by default the spec's own examples, or a seed file.
// A seed is a JSON object of resource arrays, each optional: { "customers": [...], ... }, and
// optionally `rates`, changes to the default rate table: { "rates": { "EUR": "1.10" } }.
import { readFileSync } from "node:fs";
import { isObject } from "@org/payments-engine/http/is-object.js";
import type { SpecFacts } from "../lifecycle/spec-facts.js";
import { changedRates, DEFAULT_RATES, readRateChanges } from "../money/rates.js";
import {
  COLLECTIONS,
  type CollectionName,
  type Resource,
  type SandboxData,
  type Stored,
} from "../store/state.js";

export type Seed = Partial<Record<CollectionName, Resource[]>> & {
  /** Each currency's value in USD, for the currencies whose default it changes. */
  rates?: Record<string, string>;
};

export function defaultSeed(facts: SpecFacts): Seed {
  const items = (operationId: string): Resource[] => {
    const page = facts.example(operationId);
    return isObject(page) && Array.isArray(page.items) ? (page.items as Resource[]) : [];
  };
  const one = (operationId: string): Resource[] => {
    const example = facts.example(operationId);
    return isObject(example) ? [example as Resource] : [];
  };
  return {
    customers: items("listCustomers"),
    identifications: one("createDirectIdentification"),
    signings: items("listSignings"),
    documents: items("listDocuments"),
    autoramps: one("getAutorampByExternalId"),
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

/** The seed named by --seed (a file) or passed to startMock (an object); throws naming what is wrong. */
export function readSeed(seed: string | object): Seed {
  const source = typeof seed === "string" ? `seed file ${seed}` : "seed object";
  let value: unknown = seed;
  if (typeof seed === "string") {
    try {
      value = JSON.parse(readFileSync(seed, "utf8"));
    } catch (error) {
      throw new Error(`The sandbox ${source} cannot be read: ${(error as Error).message}`);
    }
  }
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

function uniqueById(resources: Resource[]): Resource[] {
  return [...new Map(resources.map((resource) => [resource.id, resource])).values()];
}
