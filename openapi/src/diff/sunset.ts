// A deprecation's detail names the date its thing goes away, when the document gives one: the
// `x-sunset` extension (a date, as the Sunset header of RFC 8594 carries it).
import type { Json } from "./types.ts";

/** The `x-sunset` date a deprecated node names, as words for a change's detail. */
export function sunsetOf(node: Json): string {
  const sunset = node["x-sunset"];
  return typeof sunset === "string" ? `, sunset ${sunset}` : "";
}
