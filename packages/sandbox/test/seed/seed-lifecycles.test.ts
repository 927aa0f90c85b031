// The default seed's resources obey their lifecycles (lifecycles.ts): each status is one of its
// lifecycle's states, and each invariant of its lifecycle holds, against the rest of the seed.

import { createPrismEngine } from "@org/payments-engine";
import { specPath } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { type Collections, LIFECYCLES } from "../../src/lifecycle/lifecycles.js";
import { readSpecFacts } from "../../src/lifecycle/spec-facts.js";
import { dataFromSeed, defaultSeed } from "../../src/seed/index.js";

const engine = await createPrismEngine(specPath, false);
const { collections } = dataFromSeed(defaultSeed(readSpecFacts(engine.operations)));
const seeded: Collections = (name) => collections[name].map((stored) => stored.resource);

const cases = LIFECYCLES.flatMap((lifecycle) =>
  seeded(lifecycle.collection).map(
    (resource) => [`${lifecycle.resource} ${resource.id}`, lifecycle, resource] as const,
  ),
);

describe("the default seed", () => {
  it("has a resource of every lifecycle", () => {
    for (const lifecycle of LIFECYCLES) {
      expect(seeded(lifecycle.collection).length, lifecycle.resource).toBeGreaterThan(0);
    }
  });

  it.each(cases)("%s obeys its lifecycle", (_, lifecycle, resource) => {
    expect(lifecycle.states).toContain(resource.status);
    const broken = lifecycle.invariants
      .filter((invariant) => !invariant.holds(resource, seeded))
      .map((invariant) => invariant.says);
    expect(broken).toEqual([]);
  });
});
