// The remembered mocker and response check answer as Prism's own, the first time and every time
// after: for every operation of a tiny spec with examples, a named one among them (requests.yaml),
// with each preference a `Prefer` header can state and the Accept headers clients send.
import { fileURLToPath } from "node:url";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { validateOutput } from "@stoplight/prism-http/dist/validator/index.js";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { cachedMock, cachedValidateOutput } from "../../../src/engine/caches/mock-cache.js";
import { prismMock } from "../../../src/engine/prism/prism-adapter.js";
import { silentLogger } from "../../../src/engine/prism-engine.js";

const requestsSpec = fileURLToPath(new URL("../../fixtures/specs/requests.yaml", import.meta.url));

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type MockOptions = Parameters<typeof prismMock>[0];

let operations: Operations;
beforeAll(async () => {
  operations = await getHttpOperationsFromSpec(requestsSpec);
});

/** What a mocker answered, or the message of what it threw. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

const configs = fc.constantFrom<MockOptions["config"]>(
  { dynamic: false },
  { dynamic: false, code: 404 },
  { dynamic: false, code: 200 },
  { dynamic: false, exampleKey: "no-such-example" },
  { dynamic: false, exampleKey: "person" },
);
const accepts = fc.constantFrom(undefined, "application/json", "text/html", "*/*", "application/*");

it("answers every operation as Prism's mocker, first and again", () => {
  const mock = cachedMock();
  const check = cachedValidateOutput();
  let answered = 0;
  fc.assert(
    fc.property(fc.nat(), configs, accepts, fc.boolean(), (pick, config, accept, rejected) => {
      const operation = operations[pick % operations.length] as Operations[number];
      const options: MockOptions = {
        resource: operation,
        input: {
          data: {
            method: operation.method as "get",
            url: { path: operation.path },
            headers: accept === undefined ? {} : { accept },
          },
          // A rejected request's answer depends on its problems, so it is never remembered.
          validations: rejected ? [{ message: "broken", code: "x", severity: 0 }] : [],
        },
        config,
      };
      const expected = outcome(() => prismMock(options)(silentLogger));
      for (const time of ["first", "again"]) {
        const mine = outcome(() => mock(options)(silentLogger));
        expect(mine, time).toEqual(expected);
        const output = (mine as { _tag?: string; right?: unknown }).right;
        if (output !== undefined) {
          answered++;
          const element = output as Parameters<typeof validateOutput>[0]["element"];
          expect(check({ resource: operation, element })).toEqual(
            validateOutput({ resource: operation, element }),
          );
        }
      }
    }),
    { numRuns: 1_000 },
  );
  expect(answered).toBeGreaterThan(500);
});

// Requests without preferences share their engine's config; Prism's mocker writes a request's
// Accept into the config it is given, so it must get one of its own.
it("leaves a shared config as it was, so that one request's Accept does not hold for the next", () => {
  const mock = cachedMock();
  const operation = operations.find((o) => o.iid === "listItems") as Operations[number];
  const config = Object.freeze({ dynamic: false });
  const asked = (accept?: string): MockOptions => ({
    resource: operation,
    input: {
      data: {
        method: "get",
        url: { path: "/items" },
        headers: accept === undefined ? {} : { accept },
      },
      validations: [],
    },
    config,
  });
  const prisms = (options: MockOptions) =>
    outcome(() => prismMock({ ...options, config: { ...options.config } })(silentLogger));
  const html = outcome(() => mock(asked("text/html"))(silentLogger));
  expect(html).toEqual(prisms(asked("text/html")));
  expect((html as { _tag: string })._tag).toBe("Left");
  const plain = outcome(() => mock(asked())(silentLogger));
  expect(plain).toEqual(prisms(asked()));
  expect((plain as { _tag: string })._tag).toBe("Right");
  expect(config).toEqual({ dynamic: false });
});
