// Property-based fuzzing of every operation, valid and broken requests alike: the mock never answers
// 5xx (unless `Prefer: code=5xx` asked for it), never hangs, and every answer is a response the spec
// declares for the operation, body schema-checked. FUZZ_RUNS sets the number of requests per mode
// (default 300); FUZZ_SEED replays a failing run.
import { request as httpRequest } from "node:http";
import { specPath } from "@org/payments-spec";
import { fuzzRequest, undeclaredAnswer, type WireRequest } from "@org/payments-testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

const RUNS = Number(process.env.FUZZ_RUNS || 300);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  throw new Error(`FUZZ_RUNS must be a positive integer, got "${process.env.FUZZ_RUNS}"`);
}
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** An answer slower than this is a hang (the mock answers in milliseconds). */
const ANSWER_WITHIN_MS = 10_000;

interface WireAnswer {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** Sends the request with its target as is (fetch would normalise it) and reads the whole answer. */
function sendWire(baseUrl: string, wire: WireRequest): Promise<WireAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, method: wire.method, path: wire.target, headers: wire.headers },
      (incoming) => {
        let text = "";
        incoming.setEncoding("utf8");
        incoming.on("data", (chunk: string) => {
          text += chunk;
        });
        incoming.on("end", () => {
          const contentType = incoming.headers["content-type"] ?? null;
          try {
            const body = contentType?.includes("json") && text !== "" ? JSON.parse(text) : text;
            resolve({ status: incoming.statusCode ?? 0, contentType, body });
          } catch {
            reject(new Error(`answer ${incoming.statusCode} says JSON but is not: ${text}`));
          }
        });
      },
    );
    outgoing.setTimeout(ANSWER_WITHIN_MS, () =>
      outgoing.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)),
    );
    outgoing.on("error", reject);
    outgoing.end(wire.body);
  });
}

const preferredCode = (wire: WireRequest) =>
  Number(/^code=(\d{3})$/.exec(wire.headers.Prefer ?? "")?.[1]);

describe.each([
  ["stateless", false],
  ["stateful", true],
])("fuzzing every operation of the %s mock", (_, stateful) => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ spec: specPath, stateful });
  });
  afterAll(() => mock?.stop());

  it(`${RUNS} generated requests: no 5xx, no hang, only declared answers`, async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async (wire) => {
        const answer = await sendWire(mock.url, wire);
        statuses.add(answer.status);
        if (answer.status >= 500) expect(answer.status).toBe(preferredCode(wire));
        expect(undeclaredAnswer(wire.operationId, answer)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator reaches both sides: answers that succeed and answers that refuse.
    expect([...statuses].some((status) => status < 300)).toBe(true);
    expect([...statuses].some((status) => status >= 400)).toBe(true);
  });
});
