// The request target taken literally: no folding of `//` or dot segments, absolute-form's
// authority disregarded, malformed escapes found rather than thrown.
import { describe, expect, it } from "vitest";
import { decoded, splitTarget } from "../../src/http/url.js";

describe("splitTarget", () => {
  it.each([
    ["/customers", { path: "/customers", query: "" }],
    ["/customers?page_size=5&cursor=", { path: "/customers", query: "page_size=5&cursor=" }],
    ["//evil.example/customers", { path: "//evil.example/customers", query: "" }],
    ["/a/../customers", { path: "/a/../customers", query: "" }],
    ["http://proxy.example:8080/customers?x=1", { path: "/customers", query: "x=1" }],
    ["HTTPS://host", { path: "/", query: "" }],
    ["http://host?x=1", { path: "/", query: "x=1" }],
  ])("reads %s", (target, expected) => {
    expect(splitTarget(target)).toEqual(expected);
  });

  it.each(["customers", "*", "", "ftp://host/customers"])(
    "refuses %j, which is no path",
    (target) => {
      expect(splitTarget(target)).toBeUndefined();
    },
  );
});

describe("decoded", () => {
  it("decodes escapes, and says undefined for a malformed one instead of throwing", () => {
    expect(decoded("a%2Fb%20c")).toBe("a/b c");
    expect(decoded("%E2%82%AC")).toBe("€");
    for (const malformed of ["%", "%ZZ", "%E0%A4%A", "%C3"])
      expect(decoded(malformed)).toBeUndefined();
  });
});
