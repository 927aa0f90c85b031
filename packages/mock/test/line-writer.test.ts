import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { lineWriter } from "../src/line-writer.js";

describe("lineWriter", () => {
  it("writes a turn's lines in order, in one write at its end", async () => {
    const writes: string[] = [];
    const log = lineWriter((text) => writes.push(text));
    log("GET /customers → 200");
    log("POST /customers → 200");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["GET /customers → 200\nPOST /customers → 200\n"]);
    log("GET /webhooks → 200");
    await nextTurn();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe("GET /webhooks → 200\n");
  });

  it("writes what is pending at once when flushed, and nothing twice", async () => {
    const writes: string[] = [];
    const log = lineWriter((text) => writes.push(text));
    log("a");
    log.flush();
    expect(writes).toEqual(["a\n"]);
    await nextTurn();
    log.flush();
    expect(writes).toEqual(["a\n"]);
  });
});
