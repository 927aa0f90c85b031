// The README's test-mode section says what the code does: its state diagrams are the lifecycles'
// (lifecycles.ts), its retry schedule and delivery-mode rates are events.ts's.
import { readFileSync } from "node:fs";
import {
  IDENTIFICATION_REVIEW,
  LIFECYCLES,
  lifecycleDiagram,
} from "@org/payments-sandbox/lifecycle/lifecycles.js";
import {
  DUPLICATE_RATE,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
} from "@org/payments-sandbox/webhooks/events.js";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("the README's test mode", () => {
  it.each(LIFECYCLES.map((lifecycle) => [lifecycle.collection, lifecycle] as const))(
    "draws the %s lifecycle as lifecycles.ts defines it",
    (name, lifecycle) => {
      const block = new RegExp(
        `<!-- lifecycle:${name} -->\\n([\\s\\S]*?)<!-- /lifecycle:${name} -->`,
      );
      const drawn = block.exec(readme)?.[1];
      // On a change to lifecycles.ts, paste the expected block into the README.
      expect(drawn).toBe(`\`\`\`mermaid\n${lifecycleDiagram(lifecycle)}\n\`\`\`\n`);
    },
  );

  it("states the retry schedule, the review time and the delivery mode's rates", () => {
    const words = RETRY_DELAYS_SECONDS.map((seconds) =>
      seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
    );
    const schedule = `${words.slice(0, -1).join(", ")} and ${words.at(-1)} of sandbox time`;
    expect(readme.replace(/\s+/g, " ")).toContain(
      `after ${schedule} (${RETRY_DELAYS_SECONDS.length + 1} attempts in all)`,
    );
    const review = Object.values(IDENTIFICATION_REVIEW).reduce((sum, seconds) => sum + seconds, 0);
    expect(readme).toContain(`the review takes ${review / 60} minutes`);
    expect([DUPLICATE_RATE, REORDER_RATE]).toEqual([0.1, 0.1]);
    expect(readme.replace(/\s+/g, " ")).toContain(
      `one in ten is sent a second time right after it first arrives, and one in ten waits ${REORDER_DELAY_SECONDS} s of sandbox time`,
    );
  });
});
