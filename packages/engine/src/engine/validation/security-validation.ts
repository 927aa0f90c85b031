// Prism's security check (`validateSecurity` of @stoplight/prism-http 5.16.0's
// dist/validator/validators/security/index.js) with a shortcut for what passes it: a request that
// sends a non-empty header for every API-key scheme of one of the operation's requirements. Prism
// finds each scheme's handler and combines their results with fp-ts for every request; whatever
// does not take the shortcut (a missing key, any other kind of scheme) is Prism's to judge, so
// its refusals are Prism's own.
import { type Components, validateSecurity } from "../prism/index.js";

type ValidateSecurity = Components["validateSecurity"];
type Resource = Parameters<ValidateSecurity>[0]["resource"];
type Requirements = NonNullable<Resource["security"]>;

/** A `validateSecurity` for Prism's pipeline that finds what Prism's own finds. */
export function cachedValidateSecurity(): ValidateSecurity {
  const headerNames = new WeakMap<Requirements, string[][] | null>();
  const prisms = validateSecurity as unknown as ValidateSecurity;
  return (options) => {
    const { security } = options.resource;
    if (security == null || security.length === 0) return prisms(options);
    let names = headerNames.get(security);
    if (names === undefined) {
      names = apiKeyHeaderNames(security);
      headerNames.set(security, names);
    }
    const headers = (options.element.headers ?? {}) as Record<string, unknown>;
    const passes = names?.some((requirement) => requirement.every((name) => !!headers[name]));
    return passes ? { _tag: "Right", right: options.element } : prisms(options);
  };
}

/** Per requirement, the lower-case headers of its API keys; null unless every scheme is one. */
function apiKeyHeaderNames(security: Requirements): string[][] | null {
  const names: string[][] = [];
  for (const requirement of security) {
    if (requirement.length === 0) return null;
    const headers: string[] = [];
    for (const scheme of requirement) {
      if (scheme.type !== "apiKey" || scheme.in !== "header") return null;
      headers.push(scheme.name.toLowerCase());
    }
    names.push(headers);
  }
  return names;
}
