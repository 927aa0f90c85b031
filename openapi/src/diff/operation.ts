// Compares one operation in two versions of the spec: its parameters, request body, responses and
// security, each on the side of the exchange it belongs to.
import { deref, type OpenApiDocument, type OperationEntry, type Parameter } from "../document.ts";
import { compareSchemas } from "./schema.ts";
import { sunsetOf } from "./sunset.ts";
import type { Json, OperationContext, SchemaContext, Side } from "./types.ts";

export function compareOperation(
  context: OperationContext,
  baseEntry: OperationEntry,
  headEntry: OperationEntry,
) {
  const { report, operation } = context;
  const before = baseEntry.operation;
  const after = headEntry.operation;
  if (before.operationId && after.operationId && before.operationId !== after.operationId) {
    report.add(
      "operation-id-changed",
      operation,
      "",
      `operationId ${before.operationId} → ${after.operationId}`,
    );
  }
  if (!before.deprecated && after.deprecated) {
    report.add("operation-deprecated", operation, "", `operation deprecated${sunsetOf(after)}`);
  }
  compareParameters(context, baseEntry, headEntry);
  compareRequestBody(context, before.requestBody, after.requestBody);
  compareResponses(context, before.responses ?? {}, after.responses ?? {});
  compareSecurity(
    context,
    before.security ?? context.base.security,
    after.security ?? context.head.security,
  );
}

const on = (context: OperationContext, side: Side): SchemaContext => ({
  ...context,
  side,
  visited: new Set(),
});

// Parameters

/**
 * Parameters are matched by location and name; header names ignore case (HTTP does), and path
 * parameters are matched by their position in the path, so renaming `{id}` changes nothing.
 */
function parameterKey(entry: OperationEntry, parameter: Parameter): string {
  if (parameter.in === "path") {
    const position = [...entry.path.matchAll(/\{([^}]+)\}/g)].findIndex(
      (match) => match[1] === parameter.name,
    );
    return `path#${position}`;
  }
  if (parameter.in === "header") return `header:${parameter.name.toLowerCase()}`;
  return `${parameter.in}:${parameter.name}`;
}

// OpenAPI ignores header parameters with these names: they are described elsewhere.
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

function parametersOf(entry: OperationEntry): Map<string, Parameter> {
  return new Map(
    entry.parameters
      .filter((p) => !(p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())))
      .map((p) => [parameterKey(entry, p), p]),
  );
}

function compareParameters(
  context: OperationContext,
  baseEntry: OperationEntry,
  headEntry: OperationEntry,
) {
  const { report, operation } = context;
  const before = parametersOf(baseEntry);
  const after = parametersOf(headEntry);
  for (const [key, baseParameter] of before) {
    const headParameter = after.get(key);
    const location = `${baseParameter.in} parameter ${baseParameter.name}`;
    if (!headParameter) {
      report.add("parameter-removed", operation, location, "parameter removed");
      continue;
    }
    if (!baseParameter.deprecated && headParameter.deprecated) {
      report.add(
        "parameter-deprecated",
        operation,
        location,
        `parameter deprecated${sunsetOf(headParameter)}`,
      );
    }
    if (Boolean(baseParameter.required) !== Boolean(headParameter.required)) {
      const became = headParameter.required ? "required" : "optional";
      report.add(`parameter-became-${became}`, operation, location, `parameter became ${became}`);
    }
    const serialization = [serializationOf(baseParameter), serializationOf(headParameter)];
    if (serialization[0] !== serialization[1]) {
      report.add(
        "parameter-serialization-changed",
        operation,
        location,
        `serialization ${serialization[0]} → ${serialization[1]}`,
      );
    }
    compareSchemas(
      on(context, "request"),
      schemaOf(baseParameter),
      schemaOf(headParameter),
      location,
    );
  }
  for (const [key, headParameter] of after) {
    if (before.has(key)) continue;
    const location = `${headParameter.in} parameter ${headParameter.name}`;
    if (headParameter.required) {
      report.add("parameter-required-added", operation, location, "new required parameter");
    } else {
      report.add("parameter-added", operation, location, "new optional parameter");
    }
  }
}

/** How the parameter goes on the wire, with OpenAPI's defaults filled in. */
function serializationOf(parameter: Json): string {
  if (parameter.content) return `content ${Object.keys(parameter.content).join(", ")}`;
  const style = parameter.style ?? (["query", "cookie"].includes(parameter.in) ? "form" : "simple");
  const explode = parameter.explode ?? style === "form";
  const reserved = parameter.allowReserved ? ", allowReserved" : "";
  return `style ${style}, explode ${explode}${reserved}`;
}

function schemaOf(parameter: Json): unknown {
  const content: Json = parameter.content ?? {};
  return parameter.schema ?? Object.values(content)[0]?.schema ?? {};
}

// Bodies

/** Media types by their essence (`application/json; charset=utf-8` is `application/json`). */
function mediaTypes(content: Json = {}): Map<string, Json> {
  return new Map(
    Object.entries(content).map(([type, media]) => [
      (type.split(";")[0] ?? type).trim().toLowerCase(),
      media,
    ]),
  );
}

function compareRequestBody(context: OperationContext, baseNode: unknown, headNode: unknown) {
  const { report, operation } = context;
  const before = deref(context.base, baseNode);
  const after = deref(context.head, headNode);
  if (!before && !after) return;
  if (!after)
    return report.add("request-body-removed", operation, "request body", "request body removed");
  if (!before) {
    if (after.required) {
      report.add(
        "request-body-required-added",
        operation,
        "request body",
        "new required request body",
      );
    } else {
      report.add("request-body-added", operation, "request body", "new optional request body");
    }
    return;
  }
  if (!before.required && after.required) {
    report.add(
      "request-body-required-added",
      operation,
      "request body",
      "request body became required",
    );
  }
  if (before.required && !after.required) {
    report.add(
      "request-body-became-optional",
      operation,
      "request body",
      "request body became optional",
    );
  }
  compareContent(context, "request", before.content, after.content, "request");
}

/** Each media type of a body: removed, added, or its schema compared on `side`. */
function compareContent(
  context: OperationContext,
  side: Side,
  before: Json | undefined,
  after: Json | undefined,
  location: string,
) {
  const { report, operation } = context;
  const [removed, added] =
    side === "request" ? ["no longer accepted", "accepted"] : ["no longer sent", "offered"];
  const baseTypes = mediaTypes(before);
  const headTypes = mediaTypes(after);
  for (const [type, media] of baseTypes) {
    const at = `${location} ${type}`;
    if (headTypes.has(type)) {
      compareSchemas(on(context, side), media.schema, headTypes.get(type)?.schema, `${at} body`);
    } else {
      report.add(`${side}-media-type-removed`, operation, at, `media type ${removed}`);
    }
  }
  for (const type of headTypes.keys()) {
    if (!baseTypes.has(type)) {
      report.add(
        `${side}-media-type-added`,
        operation,
        `${location} ${type}`,
        `media type ${added}`,
      );
    }
  }
}

// Responses

const isSuccess = (status: string) => /^[123]/.test(status);

/**
 * The response of `responses` that a status falls under: its own, its range (`2XX`), or for a
 * failure the `default`.
 */
function coveringStatus(responses: Json, status: string): string | undefined {
  if (status in responses) return status;
  const range = /^\d\d\d$/.test(status) ? `${status[0]}XX` : undefined;
  if (range && range in responses) return range;
  if (!isSuccess(status) && "default" in responses) return "default";
  return undefined;
}

function compareResponses(context: OperationContext, before: Json, after: Json) {
  const { report, operation } = context;
  for (const status of Object.keys(after)) {
    const baseStatus = coveringStatus(before, status);
    if (baseStatus === undefined) {
      const rule = isSuccess(status)
        ? "response-success-status-added"
        : "response-error-status-added";
      report.add(rule, operation, `response ${status}`, `status ${status} added`);
      continue;
    }
    compareResponse(context, before[baseStatus], after[status], `response ${status}`);
  }
  const headSuccess = Object.keys(after).some(isSuccess);
  for (const status of Object.keys(before)) {
    if (status in after) continue;
    // A range whose codes the head spells out one by one was compared through them above.
    const range = /^(\d)XX$/.exec(status)?.[1];
    if (range && Object.keys(after).some((code) => code.startsWith(range))) continue;
    const headStatus = coveringStatus(after, status);
    if (headStatus !== undefined) {
      compareResponse(
        context,
        before[status],
        after[headStatus],
        `response ${status} (now ${headStatus})`,
      );
    } else if (isSuccess(status) && !headSuccess) {
      report.add(
        "response-success-removed",
        operation,
        `response ${status}`,
        "no success response left",
      );
    } else {
      report.add(
        "response-status-removed",
        operation,
        `response ${status}`,
        `status ${status} removed`,
      );
    }
  }
}

function compareResponse(
  context: OperationContext,
  baseNode: unknown,
  headNode: unknown,
  location: string,
) {
  const { report, operation } = context;
  const before = deref(context.base, baseNode) ?? {};
  const after = deref(context.head, headNode) ?? {};
  const hadBody = mediaTypes(before.content).size > 0;
  const hasBody = mediaTypes(after.content).size > 0;
  if (hadBody && !hasBody) {
    report.add("response-body-removed", operation, location, "response body removed");
  } else if (!hadBody && hasBody) {
    report.add("response-body-added", operation, location, "response body added");
  } else {
    compareContent(context, "response", before.content, after.content, location);
  }
  compareResponseHeaders(context, before.headers ?? {}, after.headers ?? {}, location);
}

function compareResponseHeaders(
  context: OperationContext,
  before: Json,
  after: Json,
  location: string,
) {
  const { report, operation } = context;
  const byName = (headers: Json) =>
    new Map(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), [name, header]]));
  const baseHeaders = byName(before);
  const headHeaders = byName(after);
  for (const [key, [name, baseNode]] of baseHeaders) {
    const at = `${location} header ${name}`;
    if (!headHeaders.has(key)) {
      report.add("response-header-removed", operation, at, "header removed");
      continue;
    }
    const baseHeader = deref(context.base, baseNode);
    const headHeader = deref(context.head, headHeaders.get(key)?.[1]);
    if (Boolean(baseHeader.required) !== Boolean(headHeader.required)) {
      const became = headHeader.required ? "required" : "optional";
      report.add(`response-header-became-${became}`, operation, at, `header became ${became}`);
    }
    compareSchemas(on(context, "response"), schemaOf(baseHeader), schemaOf(headHeader), at);
  }
  for (const [key, [name]] of headHeaders) {
    if (!baseHeaders.has(key)) {
      report.add("response-header-added", operation, `${location} header ${name}`, "header added");
    }
  }
}

// Security

/** Schemes used together, by what each asks of the client, with the scopes it needs. */
type Alternative = Map<string, Set<string>>;

/**
 * A security requirement is a list of alternatives, each a set of schemes used together. Schemes
 * are compared by what they ask of the client (an API key in header X-API-Key), not by name.
 */
function alternativesOf(doc: OpenApiDocument, requirements: Json[] = []): Alternative[] {
  if (requirements.length === 0) return [new Map()];
  return requirements.map(
    (requirement) =>
      new Map(
        Object.entries(requirement).map(([name, scopes]) => [
          schemeSignature(doc.components?.securitySchemes?.[name] ?? { type: name }, doc),
          new Set(scopes),
        ]),
      ),
  );
}

function schemeSignature(node: unknown, doc: OpenApiDocument): string {
  const scheme = deref(doc, node);
  if (scheme.type === "apiKey") {
    const name = scheme.in === "header" ? scheme.name.toLowerCase() : scheme.name;
    return `API key in ${scheme.in} ${name}`;
  }
  if (scheme.type === "http") return `HTTP ${scheme.scheme.toLowerCase()} authentication`;
  if (scheme.type === "openIdConnect") return `OpenID Connect (${scheme.openIdConnectUrl})`;
  if (scheme.type === "oauth2")
    return `OAuth 2 (${Object.keys(scheme.flows ?? {})
      .sort()
      .join(", ")})`;
  return String(scheme.type);
}

/** Whether a client that meets `held` meets `needed` too: same schemes, no scope it lacks. */
function satisfies(held: Alternative, needed: Alternative): boolean {
  return [...needed].every(
    ([scheme, scopes]) => held.has(scheme) && [...scopes].every((s) => held.get(scheme)?.has(s)),
  );
}

const describeAlternative = (alternative: Alternative) =>
  alternative.size === 0
    ? "no credentials"
    : [...alternative]
        .map(([scheme, scopes]) =>
          scopes.size > 0 ? `${scheme} [${[...scopes].join(", ")}]` : scheme,
        )
        .join(" + ");

function compareSecurity(
  context: OperationContext,
  before: Json[] | undefined,
  after: Json[] | undefined,
) {
  const baseAlternatives = alternativesOf(context.base, before);
  const headAlternatives = alternativesOf(context.head, after);
  const required = headAlternatives.map(describeAlternative).join(" or ");
  let narrowed = false;
  for (const held of baseAlternatives) {
    if (headAlternatives.some((needed) => satisfies(held, needed))) continue;
    narrowed = true;
    context.report.add(
      "security-narrowed",
      context.operation,
      "security",
      `${describeAlternative(held)} no longer suffices: it now takes ${required}`,
    );
  }
  const widened = headAlternatives.some(
    (held) => !baseAlternatives.some((needed) => satisfies(held, needed)),
  );
  if (!narrowed && widened) {
    context.report.add(
      "security-widened",
      context.operation,
      "security",
      `now accepts ${required}`,
    );
  }
}
