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
