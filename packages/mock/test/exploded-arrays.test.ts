// An array query parameter is exploded, as the API's document declares it (form style, explode
// true): `ids=a&ids=b`. `ids=a,b` is refused with a 422 naming the parameter and the form to use,
// by the stateless mock and the sandbox alike (the engine's validation).
import { randomUUID } from "node:crypto";
import { specPath } from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

const mocks: Record<string, RunningMock> = {};
beforeAll(async () => {
  mocks.stateless = await startMock({ spec: specPath });
  mocks.sandbox = await startMock({ spec: specPath, stateful: true });
});
afterAll(() => Promise.all(Object.values(mocks).map((mock) => mock.stop())));

describe.each(["stateless", "sandbox"])("the %s", (name) => {
  const get = async (query: string) => {
    const response = await fetch(`${mocks[name]?.url}/autoramp-transactions/ids?${query}`, {
      headers: { "X-API-Key": `exploded-${name}` },
    });
    return { status: response.status, body: await response.json() };
  };

  it("refuses ids=a,b naming the parameter and the repeated form", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const joined = await get(`ids=${a},${b}`);
    expect(joined.status).toBe(422);
    expect(joined.body.errors).toEqual([
      expect.objectContaining({ location: "query", field: "ids", rule: "explode" }),
    ]);
    expect(joined.body.errors[0].message).toContain("ids=a&ids=b");
    // The same with the comma escaped: it is the value that holds it.
    expect((await get(`ids=${a}%2C${b}`)).status).toBe(422);
  });

  it("takes the repeated form, and one id", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    expect((await get(`ids=${a}&ids=${b}`)).status).toBe(200);
    expect((await get(`ids=${a}`)).status).toBe(200);
  });
});
