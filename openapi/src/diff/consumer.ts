// A change told for the API's consumers (the guard's changelog, payments-mock impact): what
// happened to the thing it names, the field it concerns, and what a partner does about a break.

/** What happened to the thing a change names, by the rule that found it. */
export function kindOf(rule: string): "added" | "changed" | "deprecated" | "removed" {
  if (rule.endsWith("-deprecated")) return "deprecated";
  if (rule.endsWith("-removed")) return "removed";
  if (rule.endsWith("-added")) return "added";
  return "changed";
}

/** What a partner does about each kind of break, by the rule that found it. */
export function actionOf(
  rule: string,
  field: string | undefined,
  summary: string,
): string | undefined {
  const it = field === undefined ? "it" : `\`${field}\``;
  const actions: [RegExp, string][] = [
    [
      /^operation-removed$/,
      "Stop calling this operation; move to the replacement its description names",
    ],
    [
      /^operation-id-changed$/,
      `Rename your calls: ${summary} (the client's method and the MCP tool are named from it)`,
    ],
    [/^server-removed$/, "Point your client's base URL at a server the document still lists"],
    [/^security-narrowed$/, "Send the credentials the operation now requires"],
    [/^parameter-removed$/, `Stop sending ${it}: the API no longer reads it`],
    [/^parameter-(required-added|became-required)$/, `Send ${it} on every call`],
    [/^parameter-serialization-changed$/, `Send ${it} in its new form (${summary})`],
    [/^request-body-removed$/, "Stop sending a body"],
    [/^request-body-required-added$/, "Send a body on every call"],
    [/^request-media-type-removed$/, "Send the body in a media type the operation still takes"],
    [/^request-property-removed$/, `Stop sending ${it}`],
    [/^request-property-(required-added|became-required)$/, `Send ${it} in every request body`],
    [/^request-property-read-only$/, `Stop sending ${it}: it is read-only now`],
    [
      /^request-default-changed$/,
      `Send ${it} explicitly if you relied on its old default (${summary})`,
    ],
    [/^request-/, `Send only values the new schema accepts for ${it} (${summary})`],
    [/^response-success-status-added$/, "Treat the new success status as success"],
    [
      /^response-(success|body|media-type|header)-removed$|^response-header-became-optional$/,
      `Stop relying on ${it}: ${summary}`,
    ],
    [/^response-property-(removed|became-optional|write-only)$/, `Handle responses without ${it}`],
    [
      /^response-/,
      `Handle the new values of ${it} (${summary}): give switches over it a default branch`,
    ],
    [
      /^(type|format|pattern|discriminator)-changed$/,
      `Read and send ${it} as the new schema says (${summary})`,
    ],
    [/^package-export-removed$/, `Import what replaces ${it} (the compiler points at each use)`],
    [
      /^package-(method|resource)-removed$/,
      `Call what replaces ${it} (the compiler points at each call)`,
    ],
    [
      /^package-method-arguments-narrowed$/,
      `Pass ${it} the arguments it now requires (the compiler points at each call)`,
    ],
    [/^package-/, `Adjust the code typed by ${it} (the compiler points at each place)`],
  ];
  return actions.find(([pattern]) => pattern.test(rule))?.[1];
}

/** The field a location names: the last property of a body path, a parameter, or an export. */
export function fieldOf(location: string): string | undefined {
  const parameter = /parameter (\S+)$/.exec(location);
  if (parameter) return parameter[1];
  const exported = /^export (\S+)$/.exec(location);
  if (exported) return exported[1];
  const body = /body((?:\s*\(branch \d+\))?(?:\.[^.\s]+|\[\])+)$/.exec(location);
  if (body?.[1]) return body[1].replace(/^\s*\(branch \d+\)/, "").replace(/^\./, "");
  const header = /header (\S+)$/.exec(location);
  return header?.[1];
}

/** The date a deprecation's message names (its `x-sunset`), if any. */
export function sunsetIn(message: string): string | undefined {
  return /sunset (\d{4}-\d{2}-\d{2})/.exec(message)?.[1];
}

/** What a partner does about a deprecation: move off before its sunset. */
export function deprecationAction(field: string | undefined, sunset: string | undefined): string {
  return `Move off ${field === undefined ? "it" : `\`${field}\``}${sunset === undefined ? "" : ` before ${sunset}`}: a later major release removes it`;
}
