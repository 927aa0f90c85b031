// The `Prefer` header as RFC 7240 writes it and Prism reads it, without a server or a spec.
import { describe, expect, it } from "vitest";
import { hasPreferences, parsePrefer } from "../../src/http/prefer.js";

describe("parsePrefer", () => {
  it("reads each preference the mock knows, in any case, quoted or not, separated by , or ;", () => {
    expect(parsePrefer('Code=404; example="person", dynamic=false')).toEqual({
      ok: true,
      preferences: { code: 404, exampleKey: "person", dynamic: false },
    });
  });

  it("ignores preferences it does not know, and an absent header states none", () => {
    const unknown = parsePrefer("respond-async, wait=10");
    expect(unknown).toEqual({ ok: true, preferences: {} });
    const absent = parsePrefer(undefined);
    expect(absent.ok && hasPreferences(absent.preferences)).toBe(false);
  });

  it.each([
    ["code=99", "code"],
    ["code=600", "code"],
    ["dynamic=yes", "dynamic"],
    ["example=", "example"],
  ])("refuses %j, naming the preference", (header, rule) => {
    const parsed = parsePrefer(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.error).toMatchObject({ location: "header", field: "Prefer", rule });
  });
});
