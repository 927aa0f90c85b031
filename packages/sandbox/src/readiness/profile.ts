// The readiness profile: YAML that the API team edits, checked against profile.schema.json and
// against the API (operationIds, topics), so that a bad profile stops the start with the file,
// the line and the rule it breaks, rather than a report that can never pass.
import { yamlProblem } from "@org/payments-engine";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { FaultKind } from "../faults/index.js";
import { DEFAULT_PROFILE_YAML } from "../generated/readiness-profile.js";
import schema from "./profile.schema.json" with { type: "json" };

/** A resource kind, optionally with a variant: `customer/Person`. */
type StateSubject = string;

export interface Check {
  id: string;
  title: string;
  states?: Record<StateSubject, string[]>;
  operations?: Record<string, string | number>;
  documents_signed?: "all";
  topics?: "subscribed" | string[];
  recovered?: { kind?: FaultKind; status?: string | number };
  idempotency?: { key_on_every_post?: true; no_key_reuse?: true };
  paged?: true;
  deprecations?: "none";
}

export interface Profile {
  format: 1;
  name: string;
  version: string;
  checks: Check[];
}

/** What a profile is checked against, beside its schema. */
export interface ProfileContext {
  /** Every operationId of the API. */
  operationIds: readonly string[];
  /** Every webhook topic of the API. */
  topics: readonly string[];
}

/** A profile that breaks a rule: `file:line:column: where: what (rule)`. */
export class ProfileError extends Error {
  override name = "ProfileError";
  readonly file: string;
  readonly line: number;
  readonly rule: string;

  constructor(
    file: string,
    line: number,
    column: number,
    where: string,
    what: string,
    rule: string,
  ) {
    super(
      `readiness profile ${file}:${line}:${column}: ${where === "" ? "" : `${where}: `}${what} (rule: ${rule})`,
    );
    this.file = file;
    this.line = line;
    this.rule = rule;
  }
}

/** The name the built-in profile goes by in errors and reports. */
export const DEFAULT_PROFILE_FILE = "default-profile.yaml";

let compiled: ValidateFunction<Profile> | undefined;

/**
 * The profile schema's check, compiled at the first profile read: a process that reads none (the
 * stateless mock, the proxy, `payments-mock fixtures`) does not pay for compiling it.
 */
function profileCheck(): ValidateFunction<Profile> {
  // validateSchema: false: the schema is ours and fixed (checked against JSON Schema 2020-12 by
  // test/readiness/profile.test.ts); checking it at every start compiles the 2020-12 meta-schema.
  compiled ??= new Ajv2020({
    allErrors: true,
    strict: true,
    validateSchema: false,
  }).compile<Profile>(schema);
  return compiled;
}

/** Of a profile's errors, the one reported: the first of the kind that says most. */
const PRIORITY = [
  "required",
  "additionalProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "const",
  "enum",
  "anyOf",
  "type",
];

/** The built-in profile, checked as any other. */
export function defaultProfile(context: ProfileContext): Profile {
  // Read once per context: a fresh sandbox for each test would otherwise parse the YAML each time.
  let profile = defaultProfiles.get(context);
  if (profile === undefined) {
    profile = parseProfile(DEFAULT_PROFILE_YAML, DEFAULT_PROFILE_FILE, context);
    defaultProfiles.set(context, profile);
  }
  return profile;
}

const defaultProfiles = new WeakMap<ProfileContext, Profile>();

/** The document's value; yaml refuses aliases that expand past its limit (an alias bomb). */
function documentValue(document: ReturnType<typeof parseDocument>, file: string): unknown {
  try {
    return document.toJS();
  } catch (error) {
    throw new ProfileError(file, 1, 1, "", yamlProblem((error as Error).message), "yaml");
  }
}

/** Reads and checks a profile's YAML text; throws a ProfileError naming file, line and rule. */
export function parseProfile(text: string, file: string, context: ProfileContext): Profile {
  const lines = new LineCounter();
  const document = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, col };
  };
  const [syntax] = document.errors;
  if (syntax !== undefined) {
    const { line, col } = at(syntax.pos[0]);
    throw new ProfileError(file, line, col, "", yamlProblem(syntax.message), "yaml");
  }
  const value = documentValue(document, file);
  /** `onKey`: the field's name is what is wrong (an unknown one), so the error points at it. */
  const fail = (
    path: readonly (string | number)[],
    what: string,
    rule: string,
    onKey = false,
  ): never => {
    const node = nodeAt(document.contents, path, onKey);
    const { line, col } = at(node?.range?.[0] ?? 0);
    throw new ProfileError(file, line, col, pathText(path), what, rule);
  };
  const validate = profileCheck();
  if (!validate(value)) {
    const error = mostSpecific(validate.errors ?? []);
    const names = ["additionalProperties", "propertyNames"].includes(error.keyword);
    fail(pathOf(error), messageOf(error), error.keyword, names);
  }
  const profile = value as Profile;
  const ids = new Set<string>();
  const operations = new Set(context.operationIds);
  const topics = new Set(context.topics);
  profile.checks.forEach((check, index) => {
    if (ids.has(check.id))
      fail(["checks", index, "id"], `${check.id} is the id of an earlier check`, "unique");
    ids.add(check.id);
    for (const operationId of Object.keys(check.operations ?? {})) {
      if (!operations.has(operationId)) {
        fail(
          ["checks", index, "operations", operationId],
          `${operationId} is not an operationId of the API`,
          "operationId",
          true,
        );
      }
    }
    if (Array.isArray(check.topics)) {
      check.topics.forEach((topic, place) => {
        if (!topics.has(topic)) {
          fail(
            ["checks", index, "topics", place],
            `${topic} is not a webhook topic of the API`,
            "topic",
          );
        }
      });
    }
  });
  return profile;
}

/** The profile file at `path`, read and checked. */
export async function readProfile(path: string, context: ProfileContext): Promise<Profile> {
  const { readFile } = await import("node:fs/promises");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ProfileError(path, 0, 0, "", `cannot be read: ${(error as Error).message}`, "file");
  }
  return parseProfile(text, path, context);
}

/** The error to report: the first of the kind that says most (see PRIORITY). */
function mostSpecific(errors: ErrorObject[]): ErrorObject {
  const rank = (error: ErrorObject) => {
    const place = PRIORITY.indexOf(error.keyword);
    return place === -1 ? PRIORITY.length : place;
  };
  const [first] = [...errors].sort((a, b) => rank(a) - rank(b));
  if (first === undefined) throw new Error("the schema refused a profile without saying why");
  return first;
}

function pathOf(error: ErrorObject): (string | number)[] {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const params = error.params as { additionalProperty?: string; propertyName?: string };
  if (params.additionalProperty !== undefined) path.push(params.additionalProperty);
  if (params.propertyName !== undefined) path.push(params.propertyName);
  return path;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return `${String(params.additionalProperty)} is not a field of this profile format`;
    case "required":
      return `needs the field ${String(params.missingProperty)}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "minProperties":
    case "maxProperties":
      return "a check has an id, a title and exactly one rule (states, operations, documents_signed, topics, recovered, idempotency, paged or deprecations)";
    case "anyOf":
      return error.instancePath.endsWith("/topics")
        ? 'must be "subscribed" or a list of webhook topics'
        : "must be a status class such as 2xx, or a status such as 201";
    case "propertyNames":
      return `${String(params.propertyName)} is not a resource kind (customer, identification, autoramp, fiat_address, autoramp_transaction, with a variant such as customer/Person)`;
    default:
      return error.message ?? "is not allowed here";
  }
}

function pathText(path: readonly (string | number)[]): string {
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${part}`,
    )
    .join("");
}

/**
 * The YAML node at the path, or the nearest one above it that exists. `onKey`: the last field's
 * key rather than its value (its name is what is wrong); a field whose value is a block of its
 * own is pointed at by its key too.
 */
function nodeAt(
  root: unknown,
  path: readonly (string | number)[],
  onKey: boolean,
): Node | undefined {
  let node = root as Node | undefined;
  for (const [index, part] of path.entries()) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(part),
      );
      const value = pair?.value;
      const key =
        index === path.length - 1 && (onKey || value === null || isMap(value) || isSeq(value));
      next = pair === undefined ? undefined : key ? pair.key : (value ?? pair.key);
    } else if (isSeq(node) && typeof part === "number") {
      next = node.items[part];
    }
    if (next === undefined) return node;
    node = next as Node;
  }
  return node;
}
