// The mock's request pipeline gives what Prism's own (`factory` of @stoplight/prism-core) gives
// from the same steps, for valid and broken requests to every operation and for each config the
// mock sends: the answer, the request's problems and the response's, or the refusal. The pipeline
// is generic: a tiny spec has the shapes it runs through (requests.yaml).
import { fileURLToPath } from "node:url";
import { loadSpec } from "@org/payments-spec";
import { fuzzRequests } from "@org/payments-testing";
import { factory } from "@stoplight/prism-core/dist/factory.js";
import {
  getHttpOperationsFromSpec,
  type IHttpMockConfig,
  type PrismHttpComponents,
} from "@stoplight/prism-http";
import router from "@stoplight/prism-http/dist/router/index.js";
import { validateSecurity } from "@stoplight/prism-http/dist/validator/index.js";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { cachedMock, cachedValidateOutput } from "../../../src/engine/caches/mock-cache.js";
import { cachedRoute } from "../../../src/engine/caches/route-cache.js";
import { pipeline } from "../../../src/engine/prism/pipeline.js";
import { silentLogger } from "../../../src/engine/prism-engine.js";
import { cachedValidateInput } from "../../../src/engine/validation/input-validation.js";
import { bodyHeaders, prismInput } from "../../support/prism-input.js";

const requestsSpec = fileURLToPath(new URL("../../fixtures/specs/requests.yaml", import.meta.url));
const fuzzRequest = fuzzRequests(loadSpec(requestsSpec));

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type Components = PrismHttpComponents;
type Diagnostic = Extract<
  ReturnType<Components["validateOutput"]>,
  { _tag: "Left" }
>["left"][number];

// A CommonJS module: Node's import gives its exports, whose `default` is the router; Vite's gives the router.
const prismRoute: Components["route"] = typeof router === "function" ? router : router.default;

let operations: Operations;
beforeAll(async () => {
  operations = await getHttpOperationsFromSpec(requestsSpec);
});

/**
 * The steps prism-engine.ts gives the pipeline, each pipeline its own (the caches hold answers). A
 * response the spec's examples make is valid, so each one checked also gets a marker: a response
 * checked by one pipeline and not the other then differs.
 */
function steps() {
  const checkOutput = cachedValidateOutput();
  const checked = { message: "checked", code: "checked", severity: 3 } as Diagnostic;
  return {
    logger: silentLogger,
    route: cachedRoute(operations),
    validateSecurity: validateSecurity as unknown as Components["validateSecurity"],
    validateInput: cachedValidateInput(),
    mock: cachedMock(),
    validateOutput: (options: Parameters<Components["validateOutput"]>[0]) => {
      const found = checkOutput(options);
      const left: [Diagnostic, ...Diagnostic[]] = [
        checked,
        ...(found._tag === "Left" ? found.left : []),
      ];
      return { _tag: "Left" as const, left };
    },
  };
}

const base: IHttpMockConfig = {
  mock: { dynamic: false },
  checkSecurity: true,
  validateRequest: true,
  validateResponse: true,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
};
/** The mock's config, with a `Prefer` header's choices, and the proxy check's. */
const configs = fc.constantFrom<IHttpMockConfig>(
  base,
  { ...base, mock: { dynamic: false, code: 404 } },
  { ...base, mock: { dynamic: false, exampleKey: "no-such-example" } },
  { ...base, validateResponse: false },
);

/** The request as sent, or sent where no operation answers: Prism's router refuses those. */
const routes = fc.constantFrom("as sent", "unknown path", "other method");

/** A pipeline's result, or the message of what it threw. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

it("gives what Prism's pipeline gives, for every operation and config", async () => {
  const ours = pipeline(steps());
  const prisms = factory(base, {
    ...steps(),
    forward: () => {
      throw new Error("no forwarding");
    },
  });
  let refused = 0;
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(
      fuzzRequest,
      bodyHeaders,
      configs,
      routes,
      async (wire, stated, config, to) => {
        const sent = prismInput(wire, stated);
        const input =
          to === "unknown path"
            ? { ...sent, url: { ...sent.url, path: "/no-such-path" } }
            : to === "other method"
              ? { ...sent, method: "delete" as const }
              : sent;
        const { operation, ...mine } = (await outcome(() =>
          ours.request(input, operations, config),
        )) as { operation?: unknown };
        const theirs = await outcome(() => prisms.request(input, operations, config)());
        const result = theirs as { _tag?: string; right?: { validations: { input: unknown[] } } };
        if (result._tag === "Left") refused++;
        if ((result.right?.validations.input.length ?? 0) > 0) rejected++;
        expect(mine).toEqual(theirs);
        // The operation it keeps is the one Prism's own router matches.
        const routed = prismRoute({ resources: operations, input });
        if (!("threw" in mine)) {
          expect(operation).toBe(routed._tag === "Right" ? routed.right : undefined);
        }
      },
    ),
    { numRuns: 1_000 },
  );
  // The requests must include refused and rejected ones, or the comparison proves little.
  expect(refused).toBeGreaterThan(20);
  expect(rejected).toBeGreaterThan(50);
});
