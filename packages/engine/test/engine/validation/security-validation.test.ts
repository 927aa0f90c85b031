// The shortcut of the security check passes what Prism's passes and leaves the rest to Prism:
// every kind of requirement list, with keys sent, missing, empty and in other capitals.
import { validateSecurity } from "@stoplight/prism-http/dist/validator/index.js";
import { expect, it } from "vitest";
import { cachedValidateSecurity } from "../../../src/engine/validation/security-validation.js";

type Options = Parameters<ReturnType<typeof cachedValidateSecurity>>[0];
type Security = NonNullable<Options["resource"]["security"]>;

const key = (name: string) => ({ type: "apiKey", in: "header", name, key: name }) as const;
const securities: (Security | undefined)[] = [
  undefined,
  [],
  [[key("X-API-Key")]],
  [[key("X-API-Key"), key("X-Partner")]],
  [[key("X-API-Key")], [key("X-Partner")]],
  [[key("X-API-Key")], []],
  [[key("X-API-Key"), { type: "http", scheme: "bearer", key: "bearer" }]],
  [[{ type: "apiKey", in: "query", name: "api_key", key: "query" }]],
] as (Security | undefined)[];
const headerSets: Record<string, string>[] = [
  {},
  { "x-api-key": "k" },
  { "x-api-key": "" },
  { "X-API-Key": "k" },
  { "x-api-key": "k", "x-partner": "p" },
  { "x-partner": "p" },
  { "x-api-key": "k", authorization: "Bearer t" },
];

it("finds what Prism's validateSecurity finds, asked twice", () => {
  const validate = cachedValidateSecurity();
  const prisms = validateSecurity as unknown as typeof validate;
  let refused = 0;
  for (const security of securities) {
    const resource = { method: "get", path: "/items", responses: [], security } as never;
    for (const headers of headerSets) {
      const options: Options = {
        resource,
        element: { method: "get", url: { path: "/items", query: { api_key: "q" } }, headers },
      };
      const expected = prisms(options);
      if (expected._tag === "Left") refused++;
      expect(validate(options)).toEqual(expected);
      expect(validate(options)).toEqual(expected);
    }
  }
  expect(refused).toBeGreaterThan(10);
});
