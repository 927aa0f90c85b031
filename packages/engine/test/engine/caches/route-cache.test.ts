// The remembered router answers every request as Prism's own router does, the first time and
// every time after: for a spec made for routing's cases and for a tiny API's spec, over each
// operation's path with its segments replaced by fuzzed text, other methods and unknown paths.
import { fileURLToPath } from "node:url";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import router from "@stoplight/prism-http/dist/router/index.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cachedRoute } from "../../../src/engine/caches/route-cache.js";
import type { Route } from "../../../src/engine/prism/prism-adapter.js";

// A CommonJS module: Node's import gives its exports, whose `default` is the router; Vite's gives the router.
const prismRoute: Route = typeof router === "function" ? router : router.default;
const routingSpec = fileURLToPath(new URL("../../fixtures/specs/routing.yaml", import.meta.url));
const requestsSpec = fileURLToPath(new URL("../../fixtures/specs/requests.yaml", import.meta.url));

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/** A path segment: a literal of the spec, a percent-escape of one, or text of any kind. */
function segments(operations: Operations) {
  const literals = [...new Set(operations.flatMap((o) => o.path.split("/")))].filter(
    (part) => part !== "" && !part.includes("{"),
  );
  return fc.oneof(
    fc.constantFrom(...literals),
    fc
      .constantFrom(...literals)
      .map((literal) => literal.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    fc.constantFrom("", "x.json", ".json", "%ZZ", "%2F", "a b", "..", "\u00e9"),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
}

/** A value one time in four, else undefined (the part is kept as it is). */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/** A request to one of the operations, its path's segments each kept or replaced. */
function requests(operations: Operations) {
  return fc
    .record({
      operation: fc.constantFrom(...operations),
      replace: fc.array(sometimes(segments(operations)), { maxLength: 6 }),
      extra: sometimes(segments(operations)),
      method: sometimes(fc.constantFrom("get", "post", "patch", "delete", "put")),
    })
    .map(({ operation, replace, extra, method }) => {
      const parts = operation.path
        .split("/")
        .map((part, index) => (index > 0 ? (replace[index - 1] ?? part) : part));
      if (extra !== undefined) parts.push(extra);
      return { method: (method ?? operation.method) as "get", url: { path: parts.join("/") } };
    });
}

/** What a router answered, comparable: the operation itself, or the refusal's status and words. */
function answer(result: ReturnType<Route>) {
  return result._tag === "Right"
    ? { operation: result.right }
    : { status: (result.left as Error & { status?: number }).status, message: result.left.message };
}

describe.each([
  ["a spec made for routing", routingSpec],
  ["a tiny API's spec", requestsSpec],
])("the remembered router, with %s", (_, spec) => {
  it("answers as Prism's router, first and again", async () => {
    const operations = await getHttpOperationsFromSpec(spec);
    const route = cachedRoute(operations);
    let routed = 0;
    fc.assert(
      fc.property(requests(operations), (input) => {
        const expected = answer(prismRoute({ resources: operations, input }));
        if ("operation" in expected) routed++;
        expect(answer(route({ resources: operations, input }))).toEqual(expected);
        expect(answer(route({ resources: operations, input }))).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
    // Both routed and refused requests, or the comparison proves little.
    expect(routed).toBeGreaterThan(200);
    expect(routed).toBeLessThan(1_800);
  });
});
