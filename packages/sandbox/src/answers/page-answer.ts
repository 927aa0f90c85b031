// A page of a list as the API answers it, made of the items' JSON texts.
import { quoted } from "@org/payments-engine";
import { JsonText } from "../json/json-text.js";
import type { Page } from "../json/pages.js";
import { type Answer, ok, problemAnswer } from "./answer.js";

/** A page of a list as the API answers it: `{ items, cursor?, prev_cursor }`, or a 400 for a cursor it does not know. */
export function pageAnswer(page: Page): Answer {
  if (page.kind === "unknown-cursor") {
    return problemAnswer(400, "invalid-cursor", "Unknown cursor", [
      {
        location: "query",
        field: page.field,
        rule: "cursor",
        message: `${quoted(page.value)} is not a cursor of this list (with these filters and this sub-partner)`,
      },
    ]);
  }
  // JSON.stringify({ items, cursor, prev_cursor }), cursor left out when there is none, made of
  // the items' JSON texts.
  const cursor = page.cursor === undefined ? "" : `,"cursor":${JSON.stringify(page.cursor)}`;
  const prevCursor = JSON.stringify(page.prevCursor);
  return ok(
    new JsonText(`{"items":[${page.items.join(",")}]${cursor},"prev_cursor":${prevCursor}}`),
  );
}
