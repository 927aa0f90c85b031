// A request that uses something deprecated (an operation, a parameter, a body field) gets
// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) on its answer; any other request gets neither.
import { fixtureSpecPath } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ spec: fixtureSpecPath("deprecations") });
});
afterAll(() => mock?.stop());

const headers = { "X-API-Key": "test-api-key-not-a-secret" };

async function post(path: string, body: object) {
  const answer = await fetch(mock.url + path, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  await answer.arrayBuffer();
  return answer;
}

async function listWidgets(query: string) {
  const answer = await fetch(`${mock.url}/widgets?${query}`, {
    headers,
    signal: AbortSignal.timeout(5000),
  });
  await answer.arrayBuffer();
  return answer;
}

describe("the stateless mock's deprecation headers", () => {
  it("sends none when nothing deprecated is used", async () => {
    const answer = await post("/widgets", { name: "Gear", code: "G1" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBeNull();
    expect(answer.headers.get("sunset")).toBeNull();
  });

  it("names a deprecated operation's sunset", async () => {
    const answer = await post("/gadgets", { name: "Gear" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBe("@0");
    expect(answer.headers.get("sunset")).toBe("Wed, 30 Jun 2027 00:00:00 GMT");
  });

  it("names a deprecated field's sunset when the field is sent", async () => {
    const answer = await post("/widgets", { name: "Gear", legacy_code: "G" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBe("@0");
    expect(answer.headers.get("sunset")).toBe("Wed, 31 Mar 2027 00:00:00 GMT");
  });

  it("sends Deprecation alone for a field deprecated with no sunset date", async () => {
    const answer = await post("/widgets", { name: "Gear", note: "n" });
    expect(answer.headers.get("deprecation")).toBe("@0");
    expect(answer.headers.get("sunset")).toBeNull();
  });

  it("takes the earliest sunset when several deprecated things are used", async () => {
    const answer = await post("/gadgets", { name: "Gear", legacy_code: "G" });
    expect(answer.headers.get("sunset")).toBe("Wed, 31 Mar 2027 00:00:00 GMT");
  });

  it("marks a deprecated query parameter, and not answers remembered without it", async () => {
    const used = await listWidgets("colour=red");
    expect(used.status).toBe(200);
    expect(used.headers.get("deprecation")).toBe("@0");
    for (let time = 0; time < 2; time++) {
      const plain = await listWidgets("color=red");
      expect(plain.headers.get("deprecation")).toBeNull();
    }
    const again = await listWidgets("colour=red");
    expect(again.headers.get("deprecation")).toBe("@0");
  });
});
