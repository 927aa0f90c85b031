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
  /** Per operation, per config's text, per Accept (null: none sent), Prism's answer. */
  const answers = new WeakMap<object, Map<string, Map<string | null, Answer>>>();
  let count = 0;
  return (options) => {
    if (!isRemembered(options)) return prismsAnswer(options);
    let byConfig = answers.get(options.resource);
    if (byConfig === undefined) {
      byConfig = new Map();
      answers.set(options.resource, byConfig);
    }
    const config = configText(options.config);
    let known = byConfig.get(config);
    if (known === undefined) {
      known = new Map();
      byConfig.set(config, known);
    }
    const accept = acceptOf(options.input.data.headers ?? {});
    const answer = known.get(accept);
    if (answer !== undefined) return () => answer;
    return (logger) => {
      const fresh = prismsAnswer(options)(logger);
      if (fresh._tag === "Right" && count < MAX_ANSWERS) {
        count++;
        known.set(accept, fresh);
      }
      return fresh;
    };
  };
}

type Answer = ReturnType<ReturnType<Mock>>;

/**
 * Prism's mocker, given a config of its own: it writes the request's Accept into the config it
 * is given, and requests without preferences share their engine's.
 */
function prismsAnswer(options: MockOptions): ReturnType<Mock> {
  return prismMock({ ...options, config: { ...options.config } });
}

/**
 * Whether Prism's answer depends only on the operation, the config and the Accept header: not
 * for generated data, a rejected request or an operation with callbacks.
 */
function isRemembered({ resource, input, config }: MockOptions): boolean {
  return !config.dynamic && input.validations.length === 0 && !resource.callbacks?.length;
}

/** The request's Accept header (the first so named in any case), or null. */
function acceptOf(headers: Record<string, string | undefined>): string | null {
  const name = Object.keys(headers).find(
    (name) => name.length === 6 && name.toLowerCase() === "accept",
  );
  return name === undefined ? null : (headers[name] ?? null);
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
