// listen forwards events as the sandbox sends its deliveries: up to a limit at once, one after
// another for one key (a receiver and a customer), each finished (its line, its cursor kept) in
// cursor order whatever order the forwards end in; a failure stops it.
import { describe, expect, it } from "vitest";
import { InFlight } from "../../src/listen/in-flight.js";

/** A forward that ends when the test says so. */
function pending() {
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { ended, end };
}

/** Resolves once the microtasks and a turn of the event loop have run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("InFlight", () => {
  it("runs other keys' work meanwhile, one key's in order, and finishes in cursor order", async () => {
    const finished: string[] = [];
    const started: string[] = [];
    const inFlight = new InFlight<string>(8, async (done, cursor) => {
      finished.push(`${cursor}:${done}`);
    });
    const forwards = new Map([1, 2, 3].map((n) => [n, pending()]));
    const work = (n: number) => async () => {
      started.push(String(n));
      await forwards.get(n)?.ended;
      return `done ${n}`;
    };
    await inFlight.take("1", "customer a", work(1));
    await inFlight.take("2", "customer b", work(2));
    await inFlight.take("3", "customer a", work(3));
    await settled();
    // 3 waits for 1, of the same customer; 2 goes at once.
    expect(started).toEqual(["1", "2"]);
    forwards.get(2)?.end();
    await settled();
    // 2 is done, but 1 is not: nothing is finished out of cursor order.
    expect(finished).toEqual([]);
    forwards.get(1)?.end();
    await settled();
    expect(started).toEqual(["1", "2", "3"]);
    expect(finished).toEqual(["1:done 1", "2:done 2"]);
    forwards.get(3)?.end();
    await inFlight.drained();
    expect(finished).toEqual(["1:done 1", "2:done 2", "3:done 3"]);
  });

  it("takes no more than its limit until the first is finished", async () => {
    const inFlight = new InFlight<number>(2, async () => {});
    const first = pending();
    await inFlight.take("1", "a", async () => {
      await first.ended;
      return 1;
    });
    await inFlight.take("2", "b", async () => 2);
    let third = false;
    const taking = inFlight
      .take("3", "c", async () => 3)
      .then(() => {
        third = true;
      });
    await settled();
    expect(third).toBe(false);
    first.end();
    await taking;
    expect(third).toBe(true);
    await inFlight.drained();
  });

  it("stops on a failure: said by `failed`, and by the next take and drained", async () => {
    const inFlight = new InFlight<number>(4, async (_done, cursor) => {
      if (cursor === "2") throw new Error("the cursor file cannot be written");
    });
    await inFlight.take("1", "a", async () => 1);
    await inFlight.take("2", "a", async () => 2);
    await expect(inFlight.drained()).rejects.toThrow("cannot be written");
    expect(inFlight.failed.aborted).toBe(true);
    await expect(inFlight.take("3", "a", async () => 3)).rejects.toThrow("cannot be written");
  });
});
