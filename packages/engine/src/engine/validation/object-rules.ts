// Rules about an object's fields taken together (`oneOf`/`anyOf` of alternatives told apart by
// their required fields, `not` of fields sent together, `if`/`else` on a field's value, and the
// property counts), said naming the fields. Ajv reports such a rule at the object, without a
// field ("must match exactly one schema in oneOf", "must NOT be valid", "must have at least 1
// field"), and reports what each alternative misses as if all of them applied ("seconds is
// required", "to is required"): the request's author is left to guess what to send.
import type { ProblemError } from "../../http/index.js";
import { valueAt } from "../../values/index.js";

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const OBJECT_RULES = new Set(["oneOf", "anyOf", "not", "if", "minProperties", "maxProperties"]);

/**
 * The body's problems with each rule about an object's fields as a whole said of the fields it
 * names, and the problems Ajv reports of alternatives that do not apply left out.
 *
 * @param schema the schema of the body
 * @param body the body as received
 */
export function namedObjectRules(
  errors: readonly ProblemError[],
  schema: unknown,
  body: unknown,
): ProblemError[] {
  let result = [...errors];
  // An `if` is said last: whether anything else says what it asks is known then.
  const ordered = [
    ...errors.filter((e) => e.rule !== "if"),
    ...errors.filter((e) => e.rule === "if"),
  ];
  for (const error of ordered) {
    if (error.location !== "body" || !OBJECT_RULES.has(error.rule)) continue;
    if (!result.includes(error)) continue;
    const node = schemaAt(schema, error.field);
    if (node === undefined) continue;
    result = restated(result, error, node, valueAt(body, error.field));
  }
  return result;
}

/** The errors with `error` (a rule about the object at its field) said of the fields. */
function restated(
  errors: ProblemError[],
  error: ProblemError,
  node: Schema,
  value: unknown,
): ProblemError[] {
  const at = error.field;
  const present = isSchema(value) ? Object.keys(value) : [];
  const replace = (instead: ProblemError[], drop: (other: ProblemError) => boolean = () => false) =>
    errors.flatMap((other) => (other === error ? instead : drop(other) ? [] : [other]));
  const named = (field: string, message: string): ProblemError => ({
    location: "body",
    field: fieldOf(at, field),
    rule: error.rule,
    message,
  });
  switch (error.rule) {
    case "oneOf":
    case "anyOf": {
      // The schemas that apply to the object (its `allOf` parts, the branch each `if` takes)
      // with alternatives of this kind, each told apart by its required fields.
      const sites = sitesOf(node, value).flatMap((site) => {
        const branches = alternatives(site.schema[error.rule]);
        return branches === undefined ? [] : [{ ...site, branches }];
      });
      if (sites.length === 0) return errors;
      const applyingOf = (branches: Alternative[]) =>
        branches.filter((branch) => branch.required.every((f) => present.includes(f)));
      const declared = new Set([
        ...propertiesOf(node),
        ...sites.flatMap((site) => site.branches.flatMap((b) => b.properties)),
      ]);
      const requiredHere = new Set(
        sitesOf(node, value).flatMap((site) => stringsOf(site.schema.required)),
      );
      // What Ajv says of each alternative's required and unknown fields is said better here.
      const alternativeNoise = (other: ProblemError, keep: Set<string>) =>
        other.location === "body" &&
        ((other.rule === "required" &&
          !requiredHere.has(nameIn(at, other.field)) &&
          !keep.has(nameIn(at, other.field))) ||
          (other.rule === "additionalProperties" && declared.has(nameIn(at, other.field))));
      const instead: ProblemError[] = [];
      for (const { branches, when } of sites) {
        const applying = applyingOf(branches);
        const words = branches.map((branch) => branch.required.join(" and ")).join(" or ");
        const given = when.length === 0 ? "" : `with ${when.join(" and ")}, `;
        if (applying.length === 0) {
          const fields = [...new Set(branches.flatMap((branch) => branch.required))];
          const verb = error.rule === "oneOf" ? "send exactly one of" : "send at least one of";
          const message = `${given}${verb} ${words}; the body has ${fields.length > 2 ? "none of them" : "neither"}`;
          instead.push(...fields.map((field) => named(field, message)));
        } else if (applying.length > 1 && error.rule === "oneOf") {
          const fields = [...new Set(applying.flatMap((branch) => branch.required))];
          const message = `${given}send only one of ${words}, not ${applying.length > 2 ? "several" : "both"}`;
          instead.push(...fields.map((field) => named(field, message)));
        }
      }
      if (instead.length > 0) {
        return replace(instead, (other) => alternativeNoise(other, new Set()));
      }
      // One alternative applies at each: what is wrong is what is wrong with those.
      const keep = new Set(
        sites.flatMap(({ branches }) => applyingOf(branches).flatMap((b) => b.required)),
      );
      const rest = replace([], (other) => alternativeNoise(other, keep));
      const explained = rest.some((other) => other.location === "body" && within(at, other.field));
      return explained ? rest : errors;
    }
    case "not": {
      const together = isSchema(node.not) ? stringsOf(node.not.required) : [];
      if (together.length < 2 || !together.every((field) => present.includes(field))) {
        return errors;
      }
      const message = `send ${together.join(" or ")}, not ${together.length > 2 ? "all of them" : "both"}`;
      return replace(together.map((field) => named(field, message)));
    }
    case "if": {
      // The rule is what a `then` or an `else` says of the fields, and Ajv reports that too: the
      // `if` itself is said only when nothing else is.
      const explained = errors.some(
        (other) =>
          other !== error &&
          other.location === "body" &&
          other.rule !== "if" &&
          within(at, other.field),
      );
      const condition = fieldCondition(node.if);
      const governed = new Set(isSchema(node.else) ? propertiesOf(node.else) : []);
      // A value the `else` rules out, which the `if`'s field would let through: said so.
      const unless =
        condition === undefined || /"then"/.test(error.message)
          ? ""
          : ` (or send "${condition.field}": ${JSON.stringify(condition.value)})`;
      const inElse = (other: ProblemError) =>
        other !== error &&
        other.location === "body" &&
        other.field !== at &&
        governed.has(nameIn(at, other.field));
      if (!explained) {
        const fields = sitesOf(node, value)
          .flatMap((site) => (isSchema(site.schema.if) ? stringsOf(site.schema.if.required) : []))
          .filter((field) => present.includes(field));
        const message =
          fields.length === 0
            ? "breaks a rule of this body about which fields go together"
            : `breaks a rule of this body about what goes with ${fields.join(" and ")}`;
        return replace([{ ...error, message }]);
      }
      return errors.flatMap((other) =>
        other === error
          ? []
          : inElse(other)
            ? [{ ...other, message: other.message + unless }]
            : [other],
      );
    }
    default: {
      // minProperties, maxProperties: name the fields the object may have.
      const fields = propertiesOf(node);
      if (fields.length === 0) return errors;
      const bound = error.rule === "minProperties" ? node.minProperties : node.maxProperties;
      const side = error.rule === "minProperties" ? "at least" : "at most";
      const message = `must have ${side} ${String(bound)} of the fields ${fields.join(", ")}`;
      return replace([{ ...error, message }]);
    }
  }
}

/** A schema that applies to the object, and the fields whose presence made it apply. */
interface Site {
  schema: Schema;
  when: string[];
}

/**
 * The schemas that apply to a value: the node, the parts of its `allOf`, and the branch each of
 * their `if`s takes for the value (told by its required fields and their `const`s).
 */
function sitesOf(node: Schema, value: unknown, when: string[] = [], depth = 0): Site[] {
  if (depth > 8) return [];
  const sites: Site[] = [{ schema: node, when }];
  const parts = Array.isArray(node.allOf) ? node.allOf.filter(isSchema) : [];
  for (const part of parts) sites.push(...sitesOf(part, value, when, depth + 1));
  if (isSchema(node.if)) {
    const holds = conditionHolds(node.if, value);
    const branch = holds ? node.then : node.else;
    const because = holds ? [...when, ...stringsOf(node.if.required)] : when;
    if (isSchema(branch)) sites.push(...sitesOf(branch, value, because, depth + 1));
  }
  return sites;
}

/** Whether an `if` of required fields (and their `const`s) holds for the value. */
function conditionHolds(condition: Schema, value: unknown): boolean {
  if (!isSchema(value)) return false;
  const required = stringsOf(condition.required);
  if (!required.every((field) => Object.hasOwn(value, field))) return false;
  const properties = isSchema(condition.properties) ? condition.properties : {};
  return Object.entries(properties).every(
    ([field, schema]) =>
      !isSchema(schema) ||
      !("const" in schema) ||
      !Object.hasOwn(value, field) ||
      value[field] === schema.const,
  );
}

interface Alternative {
  required: string[];
  properties: string[];
}

/** Each alternative's required and declared fields; undefined unless each requires some. */
function alternatives(list: unknown): Alternative[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const branches = list.map((branch) =>
    isSchema(branch)
      ? { required: stringsOf(branch.required), properties: propertiesOf(branch) }
      : { required: [], properties: [] },
  );
  return branches.length > 0 && branches.every((branch) => branch.required.length > 0)
    ? branches
    : undefined;
}

/** `{ required: [f], properties: { f: { const: v } } }`: the field and the value it is tested for. */
function fieldCondition(schema: unknown): { field: string; value: unknown } | undefined {
  if (!isSchema(schema)) return undefined;
  const [field] = stringsOf(schema.required);
  const tested =
    field === undefined ? undefined : (schema.properties as Schema | undefined)?.[field];
  return field !== undefined && isSchema(tested) && "const" in tested
    ? { field, value: tested.const }
    : undefined;
}

/** The schema of the value at a dotted field path ("" for the root), through properties and items. */
function schemaAt(root: unknown, path: string): Schema | undefined {
  let node = isSchema(root) ? root : undefined;
  for (const key of path === "" ? [] : path.split(".")) {
    if (node === undefined) return undefined;
    const candidates = [node, ...branchesOf(node)];
    node =
      candidates
        .map((candidate) =>
          /^\d+$/.test(key) && isSchema(candidate.items)
            ? candidate.items
            : (candidate.properties as Schema | undefined)?.[key],
        )
        .find(isSchema) ?? undefined;
  }
  return node;
}

function branchesOf(node: Schema): Schema[] {
  return ["allOf", "oneOf", "anyOf"].flatMap((key) =>
    Array.isArray(node[key]) ? (node[key] as unknown[]).filter(isSchema) : [],
  );
}

function propertiesOf(node: Schema): string[] {
  return isSchema(node.properties) ? Object.keys(node.properties) : [];
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}

function fieldOf(at: string, name: string): string {
  return at === "" ? name : `${at}.${name}`;
}

/** Whether `field` is the object at `at` or a field within it. */
function within(at: string, field: string): boolean {
  return at === "" || field === at || field.startsWith(`${at}.`);
}

/** The name of the object's own field that `field` is (or is in); "" when it is not within it. */
function nameIn(at: string, field: string): string {
  if (!within(at, field) || field === at) return "";
  return (at === "" ? field : field.slice(at.length + 1)).split(".")[0] ?? "";
}
