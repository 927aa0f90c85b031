// What the guides state in words is what the sandbox's code does: the retry schedule, the
// identification review's time, the chaos mode's rates and the deliveries a crash sends again
// (events.ts, lifecycles.ts, scheduler.ts), and what the stores keep (store.ts, event-log-rows.ts).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  DELIVERIES_IN_FLIGHT,
  DUPLICATE_RATE,
  IDENTIFICATION_REVIEW,
  PROFILE_CONTEXT,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
  readProfile,
  TRANSACTION_SETTLEMENT,
} from "@org/payments-sandbox";
import {
  EVENTS_KEPT,
  KEY_RETENTION_MS,
  LOGGED_EVENTS_KEPT,
  REQUESTS_KEPT,
} from "@org/payments-sandbox/store";
import { describe, expect, it } from "vitest";
import { blocksOf, guideMarkdown } from "./support/guide-blocks.ts";

const words = (slug: string) => guideMarkdown(slug).replace(/\s+/g, " ");

describe("the guides' figures", () => {
  it("state the retry schedule of events.ts", () => {
    const delays = RETRY_DELAYS_SECONDS.map((seconds) =>
      seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
    );
    const schedule = `${delays.slice(0, -1).join(", ")} and ${delays.at(-1)} of sandbox time`;
    expect(words("webhooks")).toContain(
      `after ${schedule} (${RETRY_DELAYS_SECONDS.length + 1} attempts in all)`,
    );
  });

  it("state the deliveries a crash sends again: those in flight, as scheduler.ts bounds them", () => {
    expect(words("webhooks")).toContain(
      `at most ${DELIVERIES_IN_FLIGHT} deliveries per key sent and not yet recorded`,
    );
    expect(words("sandbox")).toContain(
      `at most the deliveries that were in flight, ${DELIVERIES_IN_FLIGHT} per key`,
    );
  });

  it("state the chaos mode's rates and delay", () => {
    expect([DUPLICATE_RATE, REORDER_RATE]).toEqual([0.1, 0.1]);
    expect(words("webhooks")).toContain(
      `one in ten is sent a second time right after it first arrives, and one in ten waits ${REORDER_DELAY_SECONDS} s of sandbox time`,
    );
  });

  it("state the review's and the settlement's times of lifecycles.ts", () => {
    const review = Object.values(IDENTIFICATION_REVIEW).map((seconds) => seconds / 60);
    expect(words("onboarding-curl")).toContain(
      `in ${review.reduce((a, b) => a + b, 0)} minutes of its time (${review.join(" + ")})`,
    );
    expect(words("readiness")).toContain(
      `approves it ${review.reduce((a, b) => a + b, 0)} minutes later on its clock`,
    );
    const { inReview, reviewed, exchanged, paidOut } = TRANSACTION_SETTLEMENT;
    expect(words("onboarding-curl")).toContain(
      `take ${(inReview + reviewed + exchanged + paidOut) / 60} minutes of sandbox time`,
    );
  });

  it("state how long the stores keep keys and how many entries each log keeps", () => {
    const count = (n: number) => n.toLocaleString("en");
    expect(words("sandbox")).toContain(
      `Idempotency keys are kept ${KEY_RETENTION_MS / 3_600_000} hours`,
    );
    expect(words("sandbox")).toContain(
      `The request log (\`GET /_sandbox/requests\`) keeps a key's newest ${count(REQUESTS_KEPT)} requests.`,
    );
    expect(words("sandbox")).toContain(
      `The delivery log (\`GET /_sandbox/events\`) keeps a key's newest ${count(EVENTS_KEPT)} delivery attempts;`,
    );
    expect(words("sandbox")).toContain(
      `The event log (\`GET /_sandbox/events/log\`) keeps a key's newest ${count(LOGGED_EVENTS_KEPT)} events.`,
    );
  });

  it("show a readiness profile the sandbox reads, and the refusal it words as the guide quotes", async () => {
    const profile = blocksOf(guideMarkdown("readiness")).find((block) =>
      block.code.startsWith("format: 1\n"),
    );
    const refusal = /such as\s+`(readiness profile acme\.yaml:[^`]+)`/.exec(
      guideMarkdown("readiness"),
    );
    const folder = mkdtempSync(path.join(tmpdir(), "docs-profile-"));
    try {
      const file = path.join(folder, "acme.yaml");
      writeFileSync(file, profile?.code ?? "");
      expect((await readProfile(file, PROFILE_CONTEXT)).name).toBe("acme-go-live");
      // The guide's refusal: the same profile with an operationId the API does not have.
      writeFileSync(file, (profile?.code ?? "").replace("getAutorampQuote:", "getQuote:"));
      const error = await readProfile(file, PROFILE_CONTEXT).catch((caught: Error) => caught);
      expect(String((error as Error).message).replace(file, "acme.yaml")).toBe(refusal?.[1]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
