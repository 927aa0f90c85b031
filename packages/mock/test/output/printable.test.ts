// What a command prints of a server's words: the key taken out, control characters escaped, and
// nothing else changed.
import { describe, expect, it } from "vitest";
import { printable } from "../../src/output/printable.js";

describe("printable", () => {
  it("replaces a long key wherever it is, also as a server echoes it encoded", () => {
    const key = "pk_test_printable/key+0123456789";
    const text = `bad key ${key}; url ?k=${encodeURIComponent(key)} json "${JSON.stringify(key).slice(1, -1)}"`;
    const shown = printable(text, key);
    expect(shown).toBe('bad key [API key]; url ?k=[API key] json "[API key]"');
  });

  it("replaces a short key only where it stands apart, so that numbers and words stay as they are", () => {
    expect(printable("Customers: 1 of 12, page_size=100", "1")).toBe(
      "Customers: [API key] of 12, page_size=100",
    );
    expect(printable("tested with key test", "test")).toBe("tested with key [API key]");
  });

  it("takes a short key out of a JSON line's texts only, leaving the values that equal it by chance", () => {
    // listen --format json and logs tail --format json: with the key `1`, the first cursor, a
    // duration of 1 ms or `false` must stay what they are, and the line must stay JSON.
    const line = JSON.stringify({
      type: "event",
      cursor: "1",
      duration_ms: 1,
      replayed: false,
      fault: null,
      error: "key 1 refused",
    });
    for (const key of ["1", "false", "null"]) {
      const shown = JSON.parse(printable(line, key));
      expect(shown).toEqual({
        ...JSON.parse(line),
        ...(key === "1" && { error: "key [API key] refused" }),
      });
    }
    const report = `${JSON.stringify({ ready: false, checks: [{ id: "quote", passed: 1 }] }, null, 2)}\n`;
    expect(printable(report, "1")).toBe(report);
  });

  it("takes a long key out of a JSON line's texts, wherever it is", () => {
    const key = "pk_test_printable/key+0123456789";
    const line = JSON.stringify({ type: "event", forwarded_to: `http://h/${key}`, key });
    expect(JSON.parse(printable(line, key))).toEqual({
      type: "event",
      forwarded_to: "http://h/[API key]",
      key: "[API key]",
    });
  });

  it("writes control characters as escapes, keeping line breaks and tabs", () => {
    expect(printable("\u001b[31mred\u001b[0m\u0007\u009b\u007f\ta\nb", "")).toBe(
      "\\u001b[31mred\\u001b[0m\\u0007\\u009b\\u007f\ta\nb",
    );
  });

  it("writes the bidirectional controls as escapes, so that a name cannot show as another", () => {
    expect(printable("list\u202eCustomers\u2066x\u2069\u200f\u061c", "")).toBe(
      "list\\u202eCustomers\\u2066x\\u2069\\u200f\\u061c",
    );
    const line = JSON.stringify({ step: "a\u202eb" });
    expect(JSON.parse(printable(line, ""))).toEqual({ step: "a\u202eb" });
  });

  it("reads back as the same value in a JSON line", () => {
    const line = JSON.stringify({ name: "a\u007fb\u0085c" });
    expect(JSON.parse(printable(line, ""))).toEqual({ name: "a\u007fb\u0085c" });
  });
});
