// Decisions the mock makes about a successful answer that the spec alone cannot make for it.
// Both are the mock's own behaviour (see the README's "Examples and lists"), not the API's.

import type { Preferences } from "../../http/index.js";
import { isObject } from "../../values/index.js";
import type { Operation } from "../prism/index.js";

type Example = { key: string; value: unknown };

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
  let best = examples[0] as Example;
  let most = agreements(best, body);
  for (const example of examples.slice(1)) {
    const count = agreements(example, body);
    if (count > most) [best, most] = [example, count];
  }
  return best.value;
}

/** How many of the body's fields the example has with the same value. */
function agreements(example: Example, body: Record<string, unknown>): number {
  const value = example.value;
  if (!isObject(value)) return 0;
  let count = 0;
  for (const field of Object.keys(body)) if (value[field] === body[field]) count++;
  return count;
}

/** Per operation and status, the named examples of its JSON answer, found once. */
const examplesByOperation = new WeakMap<Operation, Map<number, Example[]>>();

function examplesOf(operation: Operation, status: number): Example[] {
  let byStatus = examplesByOperation.get(operation);
  if (byStatus === undefined) {
    byStatus = new Map();
    examplesByOperation.set(operation, byStatus);
  }
  let examples = byStatus.get(status);
  if (examples === undefined) {
    const response = operation.responses.find((r) => r.code === String(status));
    const content = response?.contents?.find((c) => /json/i.test(c.mediaType));
    examples = (content?.examples ?? []) as Example[];
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
