// Classifies the differences between two versions of the spec as breaking changes or
// additions, from the point of view of a client built against the older version.
import { deref, listOperations } from "./index.js";

const UPPER_LIMITS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems"];
const LOWER_LIMITS = ["minLength", "minimum", "exclusiveMinimum", "minItems"];

/**
 * @returns {{ breaking: Change[], additions: Change[] }} where a Change is `{ where, message }`.
 */
export function diffSpecs(base, head) {
  const report = { breaking: [], additions: [] };
  const breaking = (where, message) => report.breaking.push({ where, message });
  const addition = (where, message) => report.additions.push({ where, message });

  const baseOps = new Map(listOperations(base).map((op) => [operationKey(op), op]));
  const headOps = new Map(listOperations(head).map((op) => [operationKey(op), op]));

  for (const [key, baseOp] of baseOps) {
    const headOp = headOps.get(key);
    if (!headOp) {
      breaking(key, "operation removed");
      continue;
    }
    compareParameters(key, baseOp, headOp);
    compareRequestBody(key, baseOp.operation.requestBody, headOp.operation.requestBody);
    compareSuccessResponse(key, baseOp.operation.responses, headOp.operation.responses);
  }
  for (const key of headOps.keys()) {
    if (!baseOps.has(key)) addition(key, "operation added");
  }
  return report;

  function compareParameters(key, baseOp, headOp) {
    const id = (p) => `${p.in} parameter ${p.name}`;
    const headParams = new Map(headOp.parameters.map((p) => [id(p), p]));
    const baseParams = new Map(baseOp.parameters.map((p) => [id(p), p]));
    for (const [name, baseParam] of baseParams) {
      const headParam = headParams.get(name);
      const where = `${key} ${name}`;
      if (!headParam) {
        breaking(where, "parameter removed");
        continue;
      }
      if (!baseParam.required && headParam.required) breaking(where, "parameter became required");
      if (baseParam.required && !headParam.required) addition(where, "parameter became optional");
      compareSchemas(where, baseParam.schema, headParam.schema, "request");
    }
    for (const [name, headParam] of headParams) {
      if (baseParams.has(name)) continue;
      const where = `${key} ${name}`;
      if (headParam.required) breaking(where, "new required parameter");
      else addition(where, "new optional parameter");
    }
  }

  function compareRequestBody(key, baseBodyRef, headBodyRef) {
    const baseBody = deref(base, baseBodyRef);
    const headBody = deref(head, headBodyRef);
    const where = `${key} request body`;
    if (!baseBody && !headBody) return;
    if (!headBody) return breaking(where, "request body removed");
    if (!baseBody) {
      if (headBody.required) breaking(where, "new required request body");
      else addition(where, "new optional request body");
      return;
    }
    if (!baseBody.required && headBody.required) breaking(where, "request body became required");
    compareSchemas(where, jsonSchema(baseBody), jsonSchema(headBody), "request");
  }

  function compareSuccessResponse(key, baseResponses, headResponses) {
    const baseSuccess = deref(base, successResponse(baseResponses));
    const headSuccess = deref(head, successResponse(headResponses));
    const where = `${key} response`;
    if (baseSuccess && !headSuccess) return breaking(where, "success response removed");
    if (!baseSuccess || !headSuccess) return;
    compareSchemas(where, jsonSchema(baseSuccess), jsonSchema(headSuccess), "response");
  }

  /**
   * Walks two schemas side by side. In a request a client sends values, so anything the
   * server stops accepting breaks it; in a response a client reads values, so anything it
   * may no longer find, or may find in a form it never saw, breaks it.
   */
  function compareSchemas(where, baseNode, headNode, direction, refPath = new Set()) {
    // Guards against recursive schemas: stop when this pair of $refs is already being compared.
    const refPair = `${baseNode?.$ref}|${headNode?.$ref}`;
    if (baseNode?.$ref && refPath.has(refPair)) return;
    const path = baseNode?.$ref ? new Set(refPath).add(refPair) : refPath;
    const a = flatten(base, baseNode);
    const b = flatten(head, headNode);
    if (!a || !b) return;

    compareTypes(where, a, b, direction);
    compareEnums(where, a, b, direction);
    if (direction === "request") compareLimits(where, a, b);
    compareProperties(where, a, b, direction, path);

    if (a.items || b.items) compareSchemas(`${where}[]`, a.items, b.items, direction, path);
    for (const keyword of ["anyOf", "oneOf"]) {
      const variants = Math.min(a[keyword]?.length ?? 0, b[keyword]?.length ?? 0);
      for (let i = 0; i < variants; i++) {
        compareSchemas(`${where} (${keyword} ${i})`, a[keyword][i], b[keyword][i], direction, path);
      }
      if ((b[keyword]?.length ?? 0) > (a[keyword]?.length ?? 0)) {
        if (direction === "response") breaking(where, `new ${keyword} variant`);
        else addition(where, `new ${keyword} variant`);
      }
      if ((b[keyword]?.length ?? 0) < (a[keyword]?.length ?? 0)) {
        if (direction === "request") breaking(where, `${keyword} variant removed`);
        else addition(where, `${keyword} variant removed`);
      }
    }
  }

  function compareTypes(where, a, b, direction) {
    const before = typeSet(a);
    const after = typeSet(b);
    if (!before || !after) {
      if (before && !after)
        (direction === "request" ? addition : breaking)(where, "type constraint removed");
      if (!before && after)
        (direction === "request" ? breaking : addition)(
          where,
          `type narrowed to ${[...after].join(" | ")}`,
        );
      return;
    }
    const lost = [...before].filter(
      (t) => !after.has(t) && !(t === "integer" && after.has("number")),
    );
    const gained = [...after].filter(
      (t) => !before.has(t) && !(t === "integer" && before.has("number")),
    );
    const change = `type ${[...before].join(" | ")} → ${[...after].join(" | ")}`;
    if (direction === "request" ? lost.length > 0 : gained.length > 0) breaking(where, `${change}`);
    else if (lost.length > 0 || gained.length > 0) addition(where, change);

    if (a.format !== b.format && b.format !== undefined) {
      if (direction === "request") breaking(where, `format ${a.format ?? "(none)"} → ${b.format}`);
      else if (a.format !== undefined) breaking(where, `format ${a.format} → ${b.format}`);
      else addition(where, `format ${b.format} added`);
    }
    if (a.format !== undefined && b.format === undefined) {
      (direction === "request" ? addition : breaking)(where, `format ${a.format} removed`);
    }
  }

  function compareEnums(where, a, b, direction) {
    const before = enumValues(a);
    const after = enumValues(b);
    if (!before && !after) return;
    if (!before) {
      if (direction === "request") breaking(where, `values restricted to ${after.join(", ")}`);
      return;
    }
    if (!after) {
      (direction === "request" ? addition : breaking)(where, "value restriction removed");
      return;
    }
    for (const value of before) {
      if (!after.includes(value)) breaking(where, `enum value ${JSON.stringify(value)} removed`);
    }
    for (const value of after) {
      if (!before.includes(value)) addition(where, `enum value ${JSON.stringify(value)} added`);
    }
  }

  function compareLimits(where, a, b) {
    for (const limit of UPPER_LIMITS) {
      if (b[limit] === undefined) continue;
      if (a[limit] === undefined || b[limit] < a[limit]) {
        breaking(where, `${limit} narrowed ${a[limit] ?? "(none)"} → ${b[limit]}`);
      }
    }
    for (const limit of LOWER_LIMITS) {
      if (b[limit] === undefined) continue;
      if (a[limit] === undefined || b[limit] > a[limit]) {
        breaking(where, `${limit} narrowed ${a[limit] ?? "(none)"} → ${b[limit]}`);
      }
    }
    for (const limit of [...UPPER_LIMITS, ...LOWER_LIMITS]) {
      if (a[limit] !== undefined && b[limit] !== undefined && a[limit] !== b[limit]) {
        const narrowed = UPPER_LIMITS.includes(limit) ? b[limit] < a[limit] : b[limit] > a[limit];
        if (!narrowed) addition(where, `${limit} widened ${a[limit]} → ${b[limit]}`);
      }
    }
    if (b.pattern !== undefined && a.pattern !== b.pattern) {
      breaking(where, `pattern ${a.pattern === undefined ? "added" : "changed"}: ${b.pattern}`);
    }
  }

  function compareProperties(where, a, b, direction, refPath) {
    const baseProps = a.properties ?? {};
    const headProps = b.properties ?? {};
    const baseRequired = new Set(a.required ?? []);
    const headRequired = new Set(b.required ?? []);
    for (const [name, baseProp] of Object.entries(baseProps)) {
      const at = `${where}.${name}`;
      if (!(name in headProps)) {
        breaking(at, "field removed");
        continue;
      }
      if (direction === "request" && !baseRequired.has(name) && headRequired.has(name)) {
        breaking(at, "request field became required");
      }
      if (direction === "response" && baseRequired.has(name) && !headRequired.has(name)) {
        breaking(at, "response field became optional");
      }
      compareSchemas(at, baseProp, headProps[name], direction, refPath);
    }
    for (const name of Object.keys(headProps)) {
      if (name in baseProps) continue;
      const at = `${where}.${name}`;
      if (direction === "request" && headRequired.has(name))
        breaking(at, "new required request field");
      else addition(at, "field added");
    }
  }
}

function operationKey(op) {
  return `${op.method.toUpperCase()} ${op.path}`;
}

function successResponse(responses = {}) {
  const code = Object.keys(responses).find((status) => /^2(\d\d|XX)$/.test(status));
  return code === undefined ? undefined : responses[code];
}

function jsonSchema(bodyOrResponse) {
  return bodyOrResponse.content?.["application/json"]?.schema;
}

/** Resolves `$ref`s and merges `allOf` parts into one schema, so both sides compare alike. */
function flatten(doc, node) {
  const schema = deref(doc, node);
  if (!schema || typeof schema !== "object" || !schema.allOf) return schema;
  const merged = { ...schema, allOf: undefined };
  for (const part of schema.allOf.map((p) => flatten(doc, p))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties") merged.properties = { ...merged.properties, ...value };
      else if (key === "required") merged.required = [...(merged.required ?? []), ...value];
      else merged[key] ??= value;
    }
  }
  return merged;
}

function typeSet(schema) {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

function enumValues(schema) {
  if (schema.const !== undefined) return [schema.const];
  return schema.enum;
}
