// The headers of an answer to a request that used something deprecated: `Deprecation` (RFC 9745)
// always, `Sunset` (RFC 8594's HTTP-date) at the earliest sunset given, none when nothing was used.
import { describe, expect, it } from "vitest";
import { deprecationHeaders } from "../../src/index.js";

describe("deprecationHeaders", () => {
  it("sends nothing when nothing deprecated was used", () => {
    expect(deprecationHeaders([])).toEqual({});
  });

  it("sends Deprecation alone when no sunset is given, or none that reads as a date", () => {
    expect(deprecationHeaders([{ what: "field `a`" }])).toEqual({ deprecation: "@0" });
    expect(deprecationHeaders([{ what: "field `a`", sunset: "someday" }])).toEqual({
      deprecation: "@0",
    });
  });

  it("takes a date as the start of its day in UTC, and the earliest of several", () => {
    const headers = deprecationHeaders([
      { what: "operation b", sunset: "2027-06-30" },
      { what: "field `a`", sunset: "2027-03-31" },
      { what: "field `c`", sunset: "2027-12-01T12:30:00Z" },
    ]);
    expect(headers).toEqual({ deprecation: "@0", sunset: "Wed, 31 Mar 2027 00:00:00 GMT" });
  });

  it("takes a date-time as given", () => {
    expect(deprecationHeaders([{ what: "field `a`", sunset: "2027-12-01T12:30:00Z" }])).toEqual({
      deprecation: "@0",
      sunset: "Wed, 01 Dec 2027 12:30:00 GMT",
    });
  });
});
