// An answer with the spec's examples is made once and its JSON text written once: the page that
// follows a cursor is the same object at every request, and its text is remembered by object.
import { describe, expect, it } from "vitest";
import { endOfListWhenFollowed } from "../../src/engine/shaping/response-shaping.js";
import { rememberedJsonText } from "../../src/http/remembered-json-text.js";

const page = { items: [{ id: "c1" }], cursor: "next", prev_cursor: "prev", total: 1 };

describe("a list answer", () => {
  it.for<[Record<string, string>, object]>([
    [{}, page],
    [{ cursor: "next" }, { items: page.items, total: 1, prev_cursor: "prev" }],
    [{ prev_cursor: "prev" }, { items: page.items, total: 1, cursor: "next" }],
    [
      { cursor: "a", prev_cursor: "b" },
      { items: page.items, total: 1 },
    ],
  ])(
    "following %j is the page without those cursors, the same object each time",
    ([query, expected]) => {
      const first = endOfListWhenFollowed(query, page);
      expect(first).toEqual(expected);
      expect(endOfListWhenFollowed({ ...query }, page)).toBe(first);
    },
  );

  it("leaves what is not a page as it is", () => {
    const customer = { id: "c1", cursor: "kept" };
    expect(endOfListWhenFollowed({ cursor: "x" }, customer)).toBe(customer);
    expect(endOfListWhenFollowed({}, "text")).toBe("text");
  });
});

describe("rememberedJsonText", () => {
  it("is JSON.stringify's text, for objects, arrays and scalars", () => {
    for (const value of [page, [1, "a", null], "text", 12, null, true]) {
      expect(rememberedJsonText(value)).toBe(JSON.stringify(value));
      expect(rememberedJsonText(value)).toBe(JSON.stringify(value));
    }
    expect(rememberedJsonText(undefined)).toBeUndefined();
  });

  it("writes an object's text once", () => {
    let reads = 0;
    const value = {
      toJSON() {
        reads++;
        return { id: "c1" };
      },
    };
    expect(rememberedJsonText(value)).toBe('{"id":"c1"}');
    expect(rememberedJsonText(value)).toBe('{"id":"c1"}');
    expect(reads).toBe(1);
  });
});
