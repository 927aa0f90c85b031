// Each change the guard finds, told as a consumer feels it: which document, which operation and
// field, added, changed, deprecated or removed, whether it breaks and why, what to do, and the
// client methods and MCP tools it touches. The changeset check, the API's version, the changelog
// and the packages' CHANGELOGs all read this one shape.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import {
  actionOf,
  deprecationAction,
  fieldOf,
  kindOf,
  RULES,
  type SpecChange,
  type SpecDiff,
  sunsetIn,
} from "@org/payments-spec/diff";

/** The two documents released: the API's and the test mode's. */
export type ApiDocument = "partner-payments" | "test-mode";

/** The published packages, and which documents reach each (generated from it or serving it). */
export const PUBLISHED_PACKAGES: Readonly<Record<ApiDocument, readonly string[]>> = {
  "partner-payments": [
    "@org/payments-types",
    "@org/payments-client",
    "@org/payments-mock",
    "@org/payments-mcp",
  ],
  "test-mode": ["@org/payments-mock", "@org/payments-mcp"],
};

/** The release a change needs: a break is a major, an addition or a deprecation a minor. */
export type Level = "major" | "minor" | "patch";

export type ApiChange = {
  document: ApiDocument;
  /** What happened to the thing it names. */
  kind: "added" | "changed" | "deprecated" | "removed";
  breaking: boolean;
  level: Level;
  /** The guard's rule (openapi/README.md explains each). */
  rule: string;
  /** Where the guard's report puts it: the operation's label and the location. */
  where: string;
  /** The operation, as `createCustomer (POST /customers)`; absent for servers and package exports. */
  operation?: { id?: string; method: string; path: string };
  /** Where in the operation, as `request application/json body.name`, or `export Customer`. */
  location: string;
  /** The field, parameter or export it concerns, when there is one: `name`, `cursor`, `Customer`. */
  field?: string;
  /** What changed, in words. */
  summary: string;
  /** For a break: what stops working, and for whom. */
  why?: string;
  /** What a consumer does about it (for a break, to upgrade). */
  action?: string;
  /** The date a deprecated thing goes away (its `x-sunset`). */
  sunset?: string;
  /** Facade methods of @org/payments-client it touches, as `payments.customers.create`. */
  clientMethods: string[];
  /** Tools of @org/payments-mcp it touches. */
  mcpTools: string[];
  /** The published packages it reaches. */
  packages: string[];
};

const ADDITION = /-(added|widened|became-optional)$/;

/** The level a change needs: what breaks is major; an addition, a widening or a deprecation minor. */
function levelOf(rule: string): Level {
  if (RULES[rule]?.breaking) return "major";
  return rule.endsWith("-deprecated") || ADDITION.test(rule) ? "minor" : "patch";
}

/** For a break: who it breaks, by what the rule says it breaks. */
function whyOf(document: ApiDocument, breaks: string, packageName: string | undefined): string {
  const callers =
    document === "test-mode"
      ? "Tests that call the sandbox's /_sandbox/ routes as before stop working as they did"
      : "Integrations that call the HTTP API as before stop working as they did";
  const code = `Code written against ${
    packageName ??
    (document === "test-mode"
      ? "@org/payments-mock's typed controls"
      : "@org/payments-types and @org/payments-client")
  } stops compiling, or meets values its types did not allow`;
  if (breaks === "wire") return callers;
  if (breaks === "packages") return code;
  return `${callers}; ${code[0]?.toLowerCase()}${code.slice(1)}`;
}

type ClientNaming = {
  methodName(operationId: string, tag: string): string;
  resourceName(tag: string): string;
};

/** The client's own naming of facade methods, from its generator (the names partners call). */
async function clientNaming(): Promise<ClientNaming> {
  const dir = path.dirname(
    createRequire(import.meta.url).resolve("@org/payments-client/package.json"),
  );
  return import(pathToFileURL(path.join(dir, "scripts/generate.ts")).href);
}

type Operation = { id?: string; tag?: string; method: string; path: string };

/** The operations of both versions by their label in the guard's report (`id (METHOD /path)`). */
function operationsByLabel(...docs: OpenApiDocument[]): Map<string, Operation> {
  const byLabel = new Map<string, Operation>();
  for (const doc of docs) {
    for (const entry of listOperations(doc)) {
      const route = `${entry.method.toUpperCase()} ${entry.path}`;
      const label = entry.operationId ? `${entry.operationId} (${route})` : route;
      if (byLabel.has(label)) continue;
      byLabel.set(label, {
        id: entry.operationId,
        tag: entry.tag,
        method: entry.method.toUpperCase(),
        path: entry.path,
      });
    }
  }
  return byLabel;
}

/**
 * Every change of one document's report, told for consumers. `base` and `head` are the two
 * versions compared (bundled, for the test mode), to name the operations' methods and tools.
 */
export async function describeChanges(
  document: ApiDocument,
  diff: SpecDiff,
  base: OpenApiDocument,
  head: OpenApiDocument,
): Promise<ApiChange[]> {
  const naming = await clientNaming();
  const operations = operationsByLabel(head, base);
  const changes = [...diff.breaking, ...diff.additions];
  return changes.map((change) => describeChange(document, change, operations, naming));
}

function describeChange(
  document: ApiDocument,
  change: SpecChange,
  operations: Map<string, Operation>,
  naming: ClientNaming,
): ApiChange {
  const rule = RULES[change.rule];
  const breaking = rule?.breaking ?? false;
  const operation = operations.get(change.operation);
  const summary = change.message.split("; ")[0] ?? change.message;
  const field = fieldOf(change.location);
  const isPackage = change.operation.startsWith("@org/");
  const sunset = sunsetIn(change.message);
  const clientMethods: string[] = [];
  if (document === "partner-payments" && operation?.id && operation.tag) {
    try {
      clientMethods.push(
        `payments.${naming.resourceName(operation.tag)}.${naming.methodName(operation.id, operation.tag)}`,
      );
    } catch {
      // An operationId the client cannot name has no facade method (the generator refuses it).
    }
  }
  const facade = /^export PaymentsResources\.(\w+)\.(\w+)/.exec(isPackage ? change.location : "");
  if (facade) clientMethods.push(`payments.${facade[1]}.${facade[2]}`);
  return {
    document,
    kind: kindOf(change.rule),
    breaking,
    level: levelOf(change.rule),
    rule: change.rule,
    where: change.where,
    ...(operation && {
      operation: {
        ...(operation.id && { id: operation.id }),
        method: operation.method,
        path: operation.path,
      },
    }),
    location: change.location,
    ...(field !== undefined && { field }),
    summary,
    ...(breaking &&
      rule && { why: whyOf(document, rule.breaks, isPackage ? change.operation : undefined) }),
    ...(breaking && { action: actionOf(change.rule, field, summary) }),
    ...(kindOf(change.rule) === "deprecated" && {
      action: deprecationAction(field, sunset),
    }),
    ...(sunset !== undefined && { sunset }),
    clientMethods,
    mcpTools: operation?.id ? [operation.id] : [],
    packages: isPackage ? [change.operation] : [...PUBLISHED_PACKAGES[document]],
  };
}
