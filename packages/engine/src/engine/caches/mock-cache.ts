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
    if (key === undefined) return prismsAnswer(options);
    let known = answers.get(options.resource);
    if (known === undefined) {
      known = new Map();
      answers.set(options.resource, known);
    }
    const answer = known.get(key);
    if (answer !== undefined) return () => answer;
    return (logger) => {
      const fresh = prismsAnswer(options)(logger);
      if (fresh._tag === "Right" && count < MAX_ANSWERS) {
        count++;
        known.set(key, fresh);
      }
      return fresh;
    };
  };
}

/**
 * Prism's mocker, given a config of its own: it writes the request's Accept into the config it
 * is given, and requests without preferences share their engine's.
 */
function prismsAnswer(options: MockOptions): ReturnType<Mock> {
  return prismMock({ ...options, config: { ...options.config } });
}

/** What Prism's answer depends on, or undefined when it depends on more. */
function keyOf({ resource, input, config }: MockOptions): string | undefined {
  if (config.dynamic || input.validations.length > 0 || (resource.callbacks ?? []).length > 0) {
    return undefined;
  }
  const headers = input.data.headers ?? {};
  const accept = Object.keys(headers).find((name) => name.toLowerCase() === "accept");
  return `${configText(config)},${JSON.stringify(accept === undefined ? null : headers[accept])}`;
}

/**
 * A config's JSON text; made once for a frozen config, which cannot change (a request without
 * preferences shares its engine's).
 */
const configTexts = new WeakMap<object, string>();

function configText(config: MockOptions["config"]): string {
  if (!Object.isFrozen(config)) return JSON.stringify(config);
  let text = configTexts.get(config);
  if (text === undefined) {
    text = JSON.stringify(config);
    configTexts.set(config, text);
  }
  return text;
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
