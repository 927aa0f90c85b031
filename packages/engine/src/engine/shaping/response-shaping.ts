// Decisions the mock makes about a successful answer that the spec alone cannot make for it.
// Both are the mock's own behaviour (see the README's "Examples and lists"), not the API's.

import type { Preferences } from "../../http/index.js";
import { isObject } from "../../values/index.js";
import type { Operation } from "../prism/index.js";

type Example = { key: string; value: unknown };
/** An example with its fields by name (none when it is not an object), read once. */
type Named = { value: unknown; fields: Map<string, unknown> | undefined };

/**
 * Of the named examples of the answer, the one that agrees with the request's body on the most
 * fields (`customer_type: Person` gets the Person example); undefined when there is no choice.
 * Prism itself always answers with the first example.
 */
export function exampleMatchingBody(
  operation: Operation | undefined,
  status: number,
  body: unknown,
): unknown {
  if (!isObject(body) || operation === undefined) return undefined;
  const examples = examplesOf(operation, status);
  if (examples.length < 2) return undefined;
  const fields = Object.keys(body);
  let best = examples[0] as Named;
  let most = agreements(best, body, fields);
  for (let index = 1; index < examples.length; index++) {
    const example = examples[index] as Named;
    const count = agreements(example, body, fields);
    if (count > most) {
      best = example;
      most = count;
    }
  }
  return best.value;
}

/** How many of the body's fields the example has with the same value. */
function agreements(example: Named, body: Record<string, unknown>, fields: string[]): number {
  if (example.fields === undefined) return 0;
  let count = 0;
  // A field the example lacks reads as undefined, which no JSON body holds.
  for (const field of fields) if (example.fields.get(field) === body[field]) count++;
  return count;
}

/** Per operation and status, the named examples of its JSON answer, found once. */
const examplesByOperation = new WeakMap<Operation, Map<number, Named[]>>();

function examplesOf(operation: Operation, status: number): Named[] {
  let byStatus = examplesByOperation.get(operation);
  if (byStatus === undefined) {
    byStatus = new Map();
    examplesByOperation.set(operation, byStatus);
  }
  let examples = byStatus.get(status);
  if (examples === undefined) {
    const response = operation.responses.find((r) => r.code === String(status));
    const content = response?.contents?.find((c) => /json/i.test(c.mediaType));
    examples = ((content?.examples ?? []) as Example[]).map(({ value }) => ({
      value,
      fields: isObject(value) ? new Map(Object.entries(value)) : undefined,
    }));
    byStatus.set(status, examples);
  }
  return examples;
}

/**
 * Without state the mock cannot page: every list answer is the spec's example, cursors included,
 * so a client that follows them would be sent the same page forever. A request that follows a
 * cursor therefore gets the example page as the last one in that direction. The page is made once
 * per example and direction (Prism's examples are shared and never changed), so that its JSON text
 * can be remembered too.
 */
export function endOfListWhenFollowed(query: Record<string, string>, body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.items)) return body;
  const variant = (query.cursor === undefined ? 0 : 1) + (query.prev_cursor === undefined ? 0 : 2);
  let pages = shapedPages.get(body);
  if (pages === undefined) {
    pages = [];
    shapedPages.set(body, pages);
  }
  pages[variant] ??= pageFollowed(body, variant);
  return pages[variant];
}

const shapedPages = new WeakMap<object, unknown[]>();

function pageFollowed(body: Record<string, unknown>, variant: number): unknown {
  const { cursor, prev_cursor, ...page } = body;
  return {
    ...page,
    ...((variant & 1) === 0 && cursor !== undefined && { cursor }),
    ...((variant & 2) === 0 && prev_cursor !== undefined && { prev_cursor }),
  };
}

/**
 * Why the operation has no answer for `preferences` (Prism found none), naming what it has: the
 * examples of the status asked for (or of every status), or the statuses it declares.
 */
export function unavailablePreference(operation: Operation, preferences: Preferences): string {
  const { code, exampleKey } = preferences;
  const responses = operation.responses.filter(
    (response) => code === undefined || response.code === String(code),
  );
  if (exampleKey !== undefined) {
    const names = [
      ...new Set(
        responses.flatMap((response) =>
          (response.contents ?? []).flatMap((content) =>
            (content.examples ?? []).map((example) => example.key),
          ),
        ),
      ),
    ];
    const has =
      names.length === 0 ? "it has no named examples" : `its examples are ${names.join(", ")}`;
    const of = code === undefined ? "" : ` for status ${code}`;
    return `example: no example is named ${JSON.stringify(exampleKey)}${of}; ${has}`;
  }
  const declared = operation.responses.map((response) => response.code).join(", ");
  return `code: the operation declares no answer with status ${code}; it declares ${declared}`;
}
