// The sandbox's resource ids are version 7 UUIDs: the time they were made at first, so that a
// partner's ids sort in the order they were made.
import { expect, it } from "vitest";
import { newResourceId } from "../src/store/resource-id.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The ms a version 7 UUID holds in its first 48 bits. */
const msOf = (id: string) => Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);

it("makes a version 7 UUID holding the time it is given", () => {
  const at = Date.UTC(2026, 10, 26, 16, 5, 0, 123);
  const id = newResourceId(at);
  expect(id).toMatch(UUID_V7);
  expect(msOf(id)).toBe(at);
});

it("orders ids made at later times after earlier ones, as text", () => {
  const start = Date.UTC(2026, 0, 1);
  const ids = Array.from({ length: 200 }, (_, index) => newResourceId(start + index * 7));
  expect([...ids].sort()).toEqual(ids);
});

it("keeps ids made in the same ms apart by their random bits", () => {
  const at = Date.UTC(2026, 0, 1);
  const ids = new Set(Array.from({ length: 1_000 }, () => newResourceId(at)));
  expect(ids.size).toBe(1_000);
  for (const id of ids) expect(msOf(id)).toBe(at);
});

it("holds times outside 48 bits of ms at the nearest end", () => {
  expect(msOf(newResourceId(-5))).toBe(0);
  expect(msOf(newResourceId(2 ** 50))).toBe(2 ** 48 - 1);
  expect(newResourceId(2 ** 50)).toMatch(UUID_V7);
  expect(msOf(newResourceId(1_700_000_000_000.9))).toBe(1_700_000_000_000);
});
