// Prism's mocked answer to a valid request, remembered. With the spec's examples (not generated
// data), Prism picks the answer of a request that passed validation from the operation, the
// preferences and the Accept header alone; it serialises it again for its (silenced) log each
// time. Requests that differ in none of those share one answer, and its check against the spec.
// Rejected requests, generated data and operations with callbacks (which send requests made from
// the request's body) go through Prism's mocker each time.
import { type Mock, prismMock, type ValidateOutput, validateOutput } from "../prism/index.js";

type MockOptions = Parameters<Mock>[0];

/** Enough for every answer of a spec many times over; past it, answers are not remembered. */
const MAX_ANSWERS = 10_000;

/** A `mock` for Prism's pipeline that answers as Prism's own and remembers what it can. */
export function cachedMock(): Mock {
  const answers = new WeakMap<object, Map<string, ReturnType<ReturnType<Mock>>>>();
  let count = 0;
  return (options) => {
    const key = keyOf(options);
    if (key === undefined) return prismMock(options);
    let known = answers.get(options.resource);
    if (known === undefined) {
      known = new Map();
      answers.set(options.resource, known);
    }
    const answer = known.get(key);
    if (answer !== undefined) return () => answer;
    return (logger) => {
      const fresh = prismMock(options)(logger);
      if (fresh._tag === "Right" && count < MAX_ANSWERS) {
        count++;
        known.set(key, fresh);
      }
      return fresh;
    };
  };
}

/** What Prism's answer depends on, or undefined when it depends on more. */
function keyOf({ resource, input, config }: MockOptions): string | undefined {
  if (config.dynamic || input.validations.length > 0 || (resource.callbacks ?? []).length > 0) {
    return undefined;
  }
  const headers = input.data.headers ?? {};
  const accept = Object.keys(headers).find((name) => name.toLowerCase() === "accept");
  return JSON.stringify([config, accept === undefined ? null : headers[accept]]);
}

/** Prism's `validateOutput`, remembering its finding for each answer remembered above. */
export function cachedValidateOutput(): ValidateOutput {
  const findings = new WeakMap<object, ReturnType<ValidateOutput>>();
  return (options) => {
    const known = findings.get(options.element);
    if (known !== undefined) return known;
    const found = validateOutput(options);
    findings.set(options.element, found);
    return found;
  };
}
