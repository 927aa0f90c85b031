// Fault rules armed through the test mode, as a partner's test arms them: an error status with
// Retry-After, a lost answer after and before the commit, a late answer; listed, disarmed, gone at
// a reset; refused with the field named when they make no sense; and never felt by another key.
import { randomUUID } from "node:crypto";
import { call, newKey, startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
/** This file's own partner, so that its rules and log are its alone. */
const KEY_A = `faults-a-${randomUUID()}`;
/** Another partner, which nothing of A's may reach. */
const KEY_B = `faults-b-${randomUUID()}`;

const as = (key: string, headers: Record<string, string> = {}) => ({
  "X-API-Key": key,
  ...headers,
});

function arm(rule: Record<string, unknown>, key = KEY_A) {
  return call(sandbox.url, "POST", "/_sandbox/faults", { body: rule, headers: as(key) });
}

function createCustomer(key: string, email: string, idempotencyKey = randomUUID()) {
  return fetch(`${sandbox.url}/customers`, {
    method: "POST",
    headers: {
      ...as(key),
      "content-type": "application/json",
      "IDEMPOTENCY-KEY": idempotencyKey,
    },
    body: JSON.stringify({ customer_type: "Person", email }),
    signal: AbortSignal.timeout(10_000),
  });
}

async function customersWith(key: string, email: string): Promise<unknown[]> {
  const answer = await call(
    sandbox.url,
    "GET",
    `/customers?search_term=${encodeURIComponent(email)}&page_size=100`,
    { headers: as(key) },
  );
  expect(answer.status).toBe(200);
  return answer.body.items;
}

async function requestLog(key: string, query: Record<string, string> = {}) {
  const answer = await call(
    sandbox.url,
    "GET",
    `/_sandbox/requests?${new URLSearchParams(query)}`,
    {
      headers: as(key),
    },
  );
  expect(answer.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: entries read as loose JSON
  return answer.body.items as any[];
}

/** Whether the connection closed with no answer. */
async function closedWithNoAnswer(sent: Promise<Response>): Promise<boolean> {
  try {
    await sent;
    return false;
  } catch (error) {
    return error instanceof TypeError;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox.stop();
});

beforeEach(async () => {
  for (const key of [KEY_A, KEY_B]) {
    expect((await call(sandbox.url, "POST", "/_sandbox/reset", { headers: as(key) })).status).toBe(
      200,
    );
  }
});

describe("the test-mode document", () => {
  it("declares the routes", async () => {
    const { body } = await call(sandbox.url, "GET", "/_sandbox/openapi.json");
    expect(body.paths["/_sandbox/faults"].post.operationId).toBe("armFault");
    expect(body.paths["/_sandbox/faults"].get.operationId).toBe("listFaults");
    expect(body.paths["/_sandbox/faults/{id}"].delete.operationId).toBe("disarmFault");
    expect(body.paths["/_sandbox/rate-limit"].put.operationId).toBe("setRateLimit");
    expect(body.paths["/_sandbox/requests"].get.operationId).toBe("listRequests");
  });
});

describe("a status", () => {
  it("answers twice with Retry-After, changes nothing, then lets the request through", async () => {
    const armed = await arm({
      operation_id: "createCustomer",
      status: 503,
      retry_after: 2,
      times: 2,
    });
    expect(armed.status).toBe(201);
    expect(armed.body).toMatchObject({ operation_id: "createCustomer", status: 503, remains: 2 });
    const email = `status-${randomUUID()}@lumen.test`;
    const idempotencyKey = randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await createCustomer(KEY_A, email, idempotencyKey);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("2");
      const problem = await response.json();
      expect(problem).toMatchObject({ status: 503, title: "Service Unavailable" });
      expect(problem.errors[0].message).toContain(armed.body.id);
      expect(await customersWith(KEY_A, email)).toEqual([]);
    }
    const third = await createCustomer(KEY_A, email, idempotencyKey);
    expect(third.status).toBe(200);
    expect(third.headers.get("idempotent-replayed")).toBeNull();
    expect(await customersWith(KEY_A, email)).toHaveLength(1);
    // Used up: disarmed, and the log names it on the two requests it answered.
    expect(
      (await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_A) })).body.items,
    ).toEqual([]);
    const hit = await requestLog(KEY_A, { fault_id: armed.body.id });
    expect(hit.map((entry) => [entry.status, entry.fault, entry.idempotency_key])).toEqual([
      [503, "status", idempotencyKey],
      [503, "status", idempotencyKey],
    ]);
    const byKey = await requestLog(KEY_A, { idempotency_key: idempotencyKey });
    expect(byKey.map((entry) => entry.status)).toEqual([200, 503, 503]);
  });

  it("acts only on the operation it names, and on requests matching `match`", async () => {
    const customer = (await createCustomer(KEY_A, `match-${randomUUID()}@lumen.test`)).json();
    const { id } = (await customer) as { id: string };
    await arm({ operation_id: "listSignings", match: { customer_id: id }, status: 500 });
    const other = await call(sandbox.url, "GET", `/customers/${randomUUID()}/signings`, {
      headers: as(KEY_A),
    });
    expect(other.status).not.toBe(500);
    expect((await call(sandbox.url, "GET", "/customers", { headers: as(KEY_A) })).status).toBe(200);
    const matched = await call(sandbox.url, "GET", `/customers/${id}/signings`, {
      headers: as(KEY_A),
    });
    expect(matched.status).toBe(500);
  });
});

describe("a drop", () => {
  it("after commit: the change is made, the answer lost, and a retry with the key replays it", async () => {
    const armed = await arm({ operation_id: "createCustomer", drop: "after_commit" });
    const email = `after-${randomUUID()}@lumen.test`;
    const idempotencyKey = randomUUID();
    expect(await closedWithNoAnswer(createCustomer(KEY_A, email, idempotencyKey))).toBe(true);
    expect(await customersWith(KEY_A, email)).toHaveLength(1);
    const retry = await createCustomer(KEY_A, email, idempotencyKey);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await customersWith(KEY_A, email)).toHaveLength(1);
    const entries = await requestLog(KEY_A, { idempotency_key: idempotencyKey });
    expect(entries.map((entry) => [entry.status, entry.replayed, entry.fault_id])).toEqual([
      [200, true, null],
      [null, false, armed.body.id],
    ]);
  });

  it("before commit: nothing changes, and the retry does the work", async () => {
    await arm({ operation_id: "createCustomer", drop: "before_commit" });
    const email = `before-${randomUUID()}@lumen.test`;
    const idempotencyKey = randomUUID();
    expect(await closedWithNoAnswer(createCustomer(KEY_A, email, idempotencyKey))).toBe(true);
    expect(await customersWith(KEY_A, email)).toEqual([]);
    const retry = await createCustomer(KEY_A, email, idempotencyKey);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await customersWith(KEY_A, email)).toHaveLength(1);
  });
});

describe("a delay", () => {
  it("holds the answer at least delay_ms, and the log says so", async () => {
    const armed = await arm({ operation_id: "listCustomers", delay_ms: 300 });
    const started = performance.now();
    const answer = await call(sandbox.url, "GET", "/customers", { headers: as(KEY_A) });
    expect(answer.status).toBe(200);
    // A timer may fire a fraction of a millisecond early by performance.now(): a floor, no ceiling.
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
    const [entry] = await requestLog(KEY_A, { fault_id: armed.body.id });
    expect(entry).toMatchObject({ fault: "delay", status: 200, operation_id: "listCustomers" });
    expect(entry.duration_ms).toBeGreaterThanOrEqual(299);
  });
});

describe("by probability", () => {
  it("acts on the requests the seed picks, the same ones each time", async () => {
    const pattern = async () => {
      const armed = await arm({
        operation_id: "listFeeProfiles",
        status: 500,
        probability: 0.5,
        seed: 7,
      });
      expect(armed.body.remains).toBeNull();
      const statuses: number[] = [];
      for (let index = 0; index < 12; index++) {
        statuses.push(
          (await call(sandbox.url, "GET", "/fee-profiles", { headers: as(KEY_A) })).status,
        );
      }
      await call(sandbox.url, "DELETE", `/_sandbox/faults/${armed.body.id}`, {
        headers: as(KEY_A),
      });
      return statuses;
    };
    const first = await pattern();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });
});

describe("the list, a delete and a reset", () => {
  it("lists the armed rules, disarms one, and a reset disarms them all", async () => {
    const one = await arm({ operation_id: "listCustomers", status: 500, times: 3 });
    const two = await arm({ topic: "CustomerCreated", delivery: "duplicate" });
    const listed = await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_A) });
    expect(listed.body.items.map((rule: { id: string }) => rule.id)).toEqual([
      one.body.id,
      two.body.id,
    ]);
    expect(listed.body.items[0].remains).toBe(3);
    const gone = await call(sandbox.url, "DELETE", `/_sandbox/faults/${one.body.id}`, {
      headers: as(KEY_A),
    });
    expect(gone.status).toBe(200);
    expect(gone.body.id).toBe(one.body.id);
    expect((await call(sandbox.url, "GET", "/customers", { headers: as(KEY_A) })).status).toBe(200);
    const again = await call(sandbox.url, "DELETE", `/_sandbox/faults/${one.body.id}`, {
      headers: as(KEY_A),
    });
    expect(again.status).toBe(404);
    expect(again.body.errors[0].field).toBe("id");
    await call(sandbox.url, "POST", "/_sandbox/reset", { headers: as(KEY_A) });
    expect(
      (await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_A) })).body.items,
    ).toEqual([]);
  });
});

describe("another key", () => {
  it("is untouched by A's rules, sees none of them, and its log holds nothing of A's", async () => {
    const armed = await arm({ operation_id: "createCustomer", status: 503, times: 5 });
    const aKey = randomUUID();
    expect((await createCustomer(KEY_A, `a-${randomUUID()}@lumen.test`, aKey)).status).toBe(503);
    expect((await createCustomer(KEY_B, `b-${randomUUID()}@lumen.test`)).status).toBe(200);
    const bRules = await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_B) });
    expect(bRules.body.items).toEqual([]);
    const bDelete = await call(sandbox.url, "DELETE", `/_sandbox/faults/${armed.body.id}`, {
      headers: as(KEY_B),
    });
    expect(bDelete.status).toBe(404);
    const bLog = await requestLog(KEY_B, { page_size: "100" });
    expect(bLog.length).toBeGreaterThan(0);
    expect(JSON.stringify(bLog)).not.toContain(armed.body.id);
    expect(JSON.stringify(bLog)).not.toContain(aKey);
    expect(await requestLog(KEY_B, { fault_id: armed.body.id })).toEqual([]);
    expect(await requestLog(KEY_B, { idempotency_key: aKey })).toEqual([]);
    // A's rule is still armed, with what remains of it.
    const aRules = await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_A) });
    expect(aRules.body.items[0].remains).toBe(4);
  });
});

describe("bad rules", () => {
  const refusals: [string, Record<string, unknown>, string][] = [
    ["an unknown operation", { operation_id: "payTwice", status: 503 }, "operation_id"],
    ["an unknown topic", { topic: "PaymentMade", delivery: "drop" }, "topic"],
    [
      "both an operation and a topic",
      { operation_id: "createCustomer", topic: "CustomerCreated", status: 503 },
      "topic",
    ],
    ["a 2xx status", { operation_id: "createCustomer", status: 200 }, "status"],
    ["a status past 5xx", { operation_id: "createCustomer", status: 600 }, "status"],
    ["a delay over the cap", { operation_id: "createCustomer", delay_ms: 60_000 }, "delay_ms"],
    ["no effect", { operation_id: "createCustomer" }, "status"],
    [
      "a status and a drop",
      { operation_id: "createCustomer", status: 503, drop: "before_commit" },
      "drop",
    ],
    [
      "a probability without a seed",
      { operation_id: "createCustomer", status: 503, probability: 0.5 },
      "seed",
    ],
    [
      "times and a probability",
      { operation_id: "createCustomer", status: 503, times: 2, probability: 0.5, seed: 1 },
      "times",
    ],
    [
      "retry_after without a status",
      { operation_id: "createCustomer", delay_ms: 10, retry_after: 1 },
      "status",
    ],
    ["an operation's effect on a topic", { topic: "CustomerCreated", status: 503 }, "status"],
    ["a topic rule with no effect", { topic: "CustomerCreated" }, "delivery"],
    [
      "a topic rule on a sub-partner",
      { topic: "CustomerCreated", delivery: "drop", match: { sub_partner_id: "x" } },
      "match.sub_partner_id",
    ],
    ["an unknown field", { operation_id: "createCustomer", status: 503, lose: true }, "lose"],
  ];
  it.each(refusals)("refuses %s, naming the field", async (_, rule, field) => {
    const answer = await arm(rule);
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect(
      (await call(sandbox.url, "GET", "/_sandbox/faults", { headers: as(KEY_A) })).body.items,
    ).toEqual([]);
  });

  it("names the fields sent that rule a field out, as the document's rules say", async () => {
    const both = await arm({
      operation_id: "createCustomer",
      topic: "CustomerCreated",
      status: 503,
    });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual(
      expect.arrayContaining([
        {
          location: "body",
          field: "topic",
          rule: "false schema",
          message: 'is not allowed with operation_id; got "CustomerCreated"',
        },
        {
          location: "body",
          field: "status",
          rule: "false schema",
          message: "is not allowed with topic; got 503",
        },
      ]),
    );
    const dropped = await arm({
      operation_id: "createCustomer",
      status: 503,
      drop: "after_commit",
    });
    expect(dropped.body.errors).toEqual([
      {
        location: "body",
        field: "drop",
        rule: "false schema",
        message: 'is not allowed with status; got "after_commit"',
      },
    ]);
    const nested = await arm({
      topic: "CustomerCreated",
      delivery: "drop",
      match: { sub_partner_id: "x" },
    });
    expect(nested.body.errors).toContainEqual({
      location: "body",
      field: "match.sub_partner_id",
      rule: "false schema",
      message: 'is not allowed with topic; got "x"',
    });
  });

  /** A rule whose `match` nests `levels` objects deep. */
  const deepRule = (levels: number) => {
    let match: unknown = { customer_id: "x" };
    for (let level = 0; level < levels; level++) match = { sub_partner_id: match };
    return { operation_id: "createCustomer", topic: "CustomerCreated", match };
  };

  it("names the fields in a rule nested 60 levels deep, under the mock's cap", async () => {
    const answer = await arm(deepRule(60));
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: "topic",
          message: expect.stringContaining("with operation_id"),
        }),
        expect.objectContaining({
          field: "match.sub_partner_id",
          rule: "false schema",
          message: "is not allowed with topic; got an object",
        }),
      ]),
    );
  });

  it("refuses a rule nested 1000 levels deep, saying why", async () => {
    const answer = await arm(deepRule(1000));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toContain("levels deep");
  });

  it("refuses an array of rules, saying what the body must be", async () => {
    const answer = await arm([
      { operation_id: "createCustomer", topic: "CustomerCreated" },
    ] as never);
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field: "", rule: "type" }));
  });
});

describe("the rate limit", () => {
  it("answers 429 beyond it with Retry-After and the RateLimit headers, only for its key, until lifted", async () => {
    const set = await call(sandbox.url, "PUT", "/_sandbox/rate-limit", {
      body: { requests_per_second: 1, burst: 2 },
      headers: as(KEY_A),
    });
    expect(set.body).toEqual({ requests_per_second: 1, burst: 2 });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let index = 0; index < 10 && limited === undefined; index++) {
      const response = await fetch(`${sandbox.url}/fee-profiles`, { headers: as(KEY_A) });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      await response.arrayBuffer();
    }
    // The burst goes through; the rest waits about a second each (the machine may be slow).
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(limited).toBeDefined();
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get("ratelimit-policy")).toBe('"sandbox";q=2;w=2');
    expect(limited?.headers.get("ratelimit")).toMatch(/^"sandbox";r=0;t=\d+$/);
    const other = await fetch(`${sandbox.url}/fee-profiles`, { headers: as(KEY_B) });
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit")).toBeNull();
    expect(await requestLog(KEY_A, { status: "429" })).toEqual(
      expect.arrayContaining([expect.objectContaining({ fault: "rate_limit", fault_id: null })]),
    );
    const lifted = await call(sandbox.url, "PUT", "/_sandbox/rate-limit", {
      body: { requests_per_second: null },
      headers: as(KEY_A),
    });
    expect(lifted.body).toEqual({ requests_per_second: null, burst: null });
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${sandbox.url}/fee-profiles`, { headers: as(KEY_A) });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit")).toBeNull();
      await response.arrayBuffer();
    }
  });
});

describe("the request log", () => {
  it("holds a request refused as invalid, with its status", async () => {
    expect((await call(sandbox.url, "GET", "/customers", { headers: as(KEY_A) })).status).toBe(200);
    const refused = await call(sandbox.url, "POST", "/customers", {
      body: { customer_type: "Robot", email: "refused@lumen.test" },
      headers: as(KEY_A, newKey()),
    });
    expect(refused.status).toBe(422);
    const [entry] = await requestLog(KEY_A, { status: "422" });
    expect(entry).toMatchObject({ operation_id: "createCustomer", status: 422, duration_ms: 0 });
  });

  it("pages newest first, with no body and no API key", async () => {
    for (let index = 0; index < 3; index++) {
      await call(sandbox.url, "POST", "/customers", {
        body: { customer_type: "Person", email: `log-${index}@lumen.test` },
        headers: as(KEY_A, newKey()),
      });
    }
    const first = await call(
      sandbox.url,
      "GET",
      "/_sandbox/requests?operation_id=createCustomer&page_size=2",
      {
        headers: as(KEY_A),
      },
    );
    expect(first.body.items).toHaveLength(2);
    expect(first.body.cursor).toBeDefined();
    const second = await call(
      sandbox.url,
      "GET",
      `/_sandbox/requests?operation_id=createCustomer&page_size=2&cursor=${first.body.cursor}`,
      { headers: as(KEY_A) },
    );
    expect(second.body.items).toHaveLength(1);
    const text = JSON.stringify([first.body, second.body]);
    expect(text).not.toContain("log-0@lumen.test");
    expect(text).not.toContain(KEY_A);
    expect(first.body.items[0]).toMatchObject({
      method: "POST",
      path: "/customers",
      operation_id: "createCustomer",
      status: 200,
      replayed: false,
      fault_id: null,
      fault: null,
    });
    expect(Object.keys(first.body.items[0]).sort()).toEqual([
      "at",
      "duration_ms",
      "fault",
      "fault_id",
      "id",
      "idempotency_key",
      "method",
      "operation_id",
      "path",
      "replayed",
      "request_id",
      "status",
    ]);
  });

  it("keeps the X-Request-Id each request was answered with, and finds a request by it", async () => {
    const response = await fetch(`${sandbox.url}/customers`, {
      method: "POST",
      headers: { ...as(KEY_A, newKey()), "Content-Type": "application/json" },
      body: JSON.stringify({ customer_type: "Robot", email: "quoted@lumen.test" }),
    });
    expect(response.status).toBe(422);
    const requestId = response.headers.get("x-request-id") ?? "";
    expect(requestId).not.toBe("");
    const [logged, ...others] = await requestLog(KEY_A, { request_id: requestId });
    expect(others).toEqual([]);
    expect(logged).toMatchObject({ request_id: requestId, status: 422 });
    // A GET answered again from the kept verdict carries its own id, not the first one's.
    const ids: string[] = [];
    for (let index = 0; index < 2; index++) {
      const read = await fetch(`${sandbox.url}/customers`, { headers: as(KEY_A) });
      ids.push(read.headers.get("x-request-id") ?? "");
    }
    for (const id of ids) {
      expect(
        (await requestLog(KEY_A, { request_id: id })).map((entry) => entry.request_id),
      ).toEqual([id]);
    }
  });
});

describe("a rule on a topic", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver.stop();
  });

  /** A webhook of A's on CustomerCreated, at its own path of the receiver; the customer's event arrives there. */
  async function customerCreatedAt(path: string): Promise<string> {
    const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
      body: { url: `${receiver.url}/${path}`, topics: ["CustomerCreated"] },
      headers: as(KEY_A),
    });
    expect(webhook.status).toBe(200);
    const created = await createCustomer(KEY_A, `${path}-${randomUUID()}@lumen.test`);
    expect(created.status).toBe(200);
    return ((await created.json()) as { id: string }).id;
  }

  const advance = (seconds: number) =>
    call(sandbox.url, "POST", "/_sandbox/clock/advance", { body: { seconds }, headers: as(KEY_A) });

  const arrivedAt = (path: string) =>
    receiver.deliveries.filter((delivery) => delivery.path === `/${path}`);

  async function attemptsOf(query: Record<string, string>) {
    const answer = await call(
      sandbox.url,
      "GET",
      `/_sandbox/events?${new URLSearchParams(query)}`,
      {
        headers: as(KEY_A),
      },
    );
    // biome-ignore lint/suspicious/noExplicitAny: attempts read as loose JSON
    return answer.body.items as any[];
  }

  it("duplicate: the same event arrives twice, with one id", async () => {
    const path = `duplicate-${randomUUID()}`;
    const armed = await arm({ topic: "CustomerCreated", delivery: "duplicate" });
    await customerCreatedAt(path);
    await advance(0);
    const arrived = arrivedAt(path);
    expect(arrived).toHaveLength(2);
    expect(arrived[0]?.body.id).toBe(arrived[1]?.body.id);
    const attempts = await attemptsOf({ id: arrived[0]?.body.id });
    expect(attempts.map((attempt) => attempt.fault_id)).toEqual([armed.body.id, armed.body.id]);
  });

  it("drop: nothing arrives, the event log records it, and it can be redelivered", async () => {
    const path = `drop-${randomUUID()}`;
    const armed = await arm({ topic: "CustomerCreated", delivery: "drop" });
    const customerId = await customerCreatedAt(path);
    await advance(0);
    expect(arrivedAt(path)).toEqual([]);
    const [attempt] = await attemptsOf({ customer_id: customerId, topic: "CustomerCreated" });
    expect(attempt).toMatchObject({ delivered: false, sent: false, fault_id: armed.body.id });
    const redelivered = await call(
      sandbox.url,
      "POST",
      `/_sandbox/events/${attempt.id}/redeliver`,
      {
        headers: as(KEY_A),
      },
    );
    expect(redelivered.body).toMatchObject({ delivered: true });
    expect(arrivedAt(path).map((delivery) => delivery.body.id)).toEqual([attempt.id]);
  });

  it("delay_seconds: the event arrives that much later on the sandbox clock", async () => {
    const path = `delay-${randomUUID()}`;
    await arm({ topic: "CustomerCreated", delay_seconds: 600 });
    await customerCreatedAt(path);
    await advance(0);
    expect(arrivedAt(path)).toEqual([]);
    await advance(599);
    expect(arrivedAt(path)).toEqual([]);
    await advance(1);
    expect(arrivedAt(path)).toHaveLength(1);
  });

  it("drops a ping too: it answers false, and the event log names the rule", async () => {
    const path = `ping-${randomUUID()}`;
    const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
      body: { url: `${receiver.url}/${path}`, topics: ["CustomerCreated"] },
      headers: as(KEY_A),
    });
    const customer = (await (await createCustomer(KEY_A, `${path}@lumen.test`)).json()) as {
      id: string;
    };
    const armed = await arm({ topic: "Ping", delivery: "drop" });
    const ping = await call(sandbox.url, "POST", `/webhooks/${webhook.body.id}/ping`, {
      body: { customer_id: customer.id },
      headers: as(KEY_A, newKey()),
    });
    expect(ping).toMatchObject({ status: 200, body: false });
    const [attempt] = await attemptsOf({ topic: "Ping", webhook_id: webhook.body.id });
    expect(attempt).toMatchObject({ sent: false, fault_id: armed.body.id });
    expect(arrivedAt(path).filter((delivery) => delivery.body.topic === "Ping")).toEqual([]);
  });

  it("acts on the caller's key only", async () => {
    const path = `other-${randomUUID()}`;
    await arm({ topic: "CustomerCreated", delivery: "drop", times: 5 });
    const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
      body: { url: `${receiver.url}/${path}`, topics: ["CustomerCreated"] },
      headers: as(KEY_B),
    });
    expect(webhook.status).toBe(200);
    expect((await createCustomer(KEY_B, `${path}@lumen.test`)).status).toBe(200);
    await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
      body: { seconds: 0 },
      headers: as(KEY_B),
    });
    expect(arrivedAt(path)).toHaveLength(1);
    expect(arrivedAt(path)[0]?.body.fault_id).toBeUndefined();
  });
});

describe("a sandbox started without rehearsal", () => {
  it("answers the API as ever, and each route of rehearsal with a 404 that says why", async () => {
    const plain = await startSandbox({ rehearsal: false });
    try {
      const customer = await call(plain.url, "POST", "/customers", {
        body: { customer_type: "Person", email: "plain@lumen.test" },
        headers: newKey(),
      });
      expect(customer.status).toBe(200);
      for (const [method, path, body] of [
        ["GET", "/_sandbox/faults", undefined],
        ["POST", "/_sandbox/faults", { operation_id: "createCustomer", status: 503 }],
        ["PUT", "/_sandbox/rate-limit", { requests_per_second: 1 }],
        ["GET", "/_sandbox/requests", undefined],
      ] as const) {
        const refused = await call(plain.url, method, path, { body });
        expect(refused.status, `${method} ${path}`).toBe(404);
        expect(refused.body.errors[0].rule).toBe("rehearsal");
      }
    } finally {
      await plain.stop();
    }
  });
});
