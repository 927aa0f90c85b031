// The one place the mock reaches into @stoplight/prism-http: its router, validators, mocker and
// OpenAPI reader live in its dist/ modules, which are not a public API and may move in any
// release. Written against PRISM_HTTP_VERSION; test/engine/prism-adapter.test.ts fails, saying
// so, when another version is installed. Everything else of the mock imports Prism from here.
//
// In Node, modules are required, not imported, and in this order: first the stand-ins for the
// modules the mocker loads as it loads but calls only for some answers (its JSON Schema data
// generator, json-schema-faker and Faker with all its locales, about a third of the CLI's start-up,
// used with --dynamic: an answer the spec gives no example is sampled without it, see
// staticGeneration; and its callback runner) and
// for the security check the validator loads as it loads but that runs only for a request without
// an API key (it loads lodash/fp, a second lodash: a tenth of a `payments-mock fixtures` start),
// each loading its module at its first use; then Prism. An import would read every export of the
// mocker, and its `resetJSONSchemaGenerator` would load the generator at once.
//
// In a browser (no `process`), the same modules come bundled: the browser build (the mock's
// scripts/build-browser.ts) bundles what `bundledPrism` requires by name, with Faker left out.
import type {
  getHttpOperationsFromSpec,
  IHttpConfig,
  PrismHttpComponents,
} from "@stoplight/prism-http";

/** The version of @stoplight/prism-http whose internals this file was written against. */
export const PRISM_HTTP_VERSION = "5.16.0";

const DIST = "@stoplight/prism-http/dist";

/** Node's module loader; undefined in a browser. */
const nodeModules = globalThis.process?.getBuiltinModule?.("node:module");

/** The modules deferred, as the mocker requires them (none in a browser: they are bundled). */
export const DEFERRED_MODULES: string[] = [];

type Exports = Record<string | symbol, unknown>;

/**
 * A loaded module whose exports are `path`'s, read from it (loading it) when first used; until
 * then, the exports `early` gives (given the means to load the module) answer for it.
 */
function standIn(
  modules: typeof import("node:module"),
  require: NodeJS.Require,
  path: string,
  early: (load: () => Exports) => Exports = () => ({}),
): import("node:module").Module {
  let loaded: Exports | undefined;
  const target = () => {
    if (loaded === undefined) {
      delete require.cache[path];
      loaded = require(path) as Exports;
    }
    return loaded;
  };
  const before = early(target);
  const module = new modules.Module(path);
  module.filename = path;
  module.loaded = true;
  module.exports = new Proxy(
    {},
    {
      get: (_, name) =>
        loaded === undefined && Object.hasOwn(before, name) ? before[name] : target()[name],
      has: (_, name) => name in target(),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, name) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(target(), name);
        // A proxy may not report a property non-configurable that its own target lacks.
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
  return module;
}

type RouterModule = typeof import("@stoplight/prism-http/dist/router/index.js");
type ValidatorModule = typeof import("@stoplight/prism-http/dist/validator/index.js");
type ValidatorsModule = typeof import("@stoplight/prism-http/dist/validator/validators/index.js");
type HeadersModule = typeof import("@stoplight/prism-http/dist/validator/validators/headers.js");
type MediaTypeModule =
  typeof import("@stoplight/prism-http/dist/validator/utils/wildcardMediaTypeMatch.js");
type MockerModule = typeof import("@stoplight/prism-http/dist/mocker/index.js");
type OperationsModule = typeof import("@stoplight/prism-http/dist/utils/operations.js");
type SchemaUtilsModule = typeof import("@stoplight/prism-http/dist/validator/validators/utils.js");
type SchemaFilterModule =
  typeof import("@stoplight/prism-http/dist/utils/filterRequiredProperties.js");
type Schema = Parameters<SchemaFilterModule["stripReadOnlyProperties"]>[0];

export type Components = PrismHttpComponents;
export type HttpConfig = IHttpConfig;
export type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
export type Operation = Operations[number];
export type Route = Components["route"];
export type ValidateInput = ValidatorModule["validateInput"];
export type ValidateOutput = ValidatorModule["validateOutput"];
export type Mock = MockerModule["default"];

/** A CommonJS module's default export: Node's require gives its exports, whose `default` it is. */
function defaultOf<T>(module: T | { default: T }): T {
  return typeof module === "function" ? (module as T) : (module as { default: T }).default;
}

/** The modules of Prism this file uses, and Prism's own dependencies as Prism requires them. */
interface PrismModules {
  router: RouterModule;
  validator: ValidatorModule;
  validators: ValidatorsModule;
  headers: HeadersModule;
  mediaTypes: MediaTypeModule;
  /** Loaded at the first answer mocked: a fixture run or the proxy only validates. */
  mocker: () => MockerModule;
  schemaUtils: SchemaUtilsModule;
  schemaFilters: SchemaFilterModule;
  dateTime: DateTimeModule;
  mergeAllOf: MergeAllOf;
  /** Prism's Ajv of each draft, and ajv-formats; undefined where they are not loaded apart. */
  ajv: ((module: keyof typeof DRAFTS | "formats") => unknown) | undefined;
  /** Prism's OpenAPI reader; undefined in a browser, which is given operations read before. */
  operations: (() => OperationsModule) | undefined;
}

type DateTimeModule = {
  fmtDef(validate: unknown, compare: unknown): unknown;
  date_time: unknown;
  compareDateTime: unknown;
};
type MergeAllOf = (
  schema: Schema,
  options: { deep: boolean; ignoreAdditionalProperties: boolean },
) => Schema;

/**
 * Prism's `generateStatic` (of dist/mocker/generator/JSONSchema.js: the body of an answer whose
 * spec gives no example, such as most error answers, sampled from its schema by
 * @stoplight/json-schema-sampler), without that module, which loads Faker with all its locales for
 * `--dynamic`: about 0.2 CPU-s at the first such answer. The sampler is the module's own, called
 * as it calls it; a schema it fails on goes to the module's own `generateStatic`, so the error is
 * Prism's.
 */
function staticGeneration(modules: typeof import("node:module"), path: string) {
  return (load: () => Exports): Exports => {
    let sampler: { sample(schema: unknown, options: object, spec: unknown): unknown } | undefined;
    type Sampled = { _tag: "Right"; right: unknown } | { _tag: "Left"; left: Error };
    const generateStatic = (operation: unknown, source: unknown): Sampled => {
      sampler ??= modules.createRequire(path)("@stoplight/json-schema-sampler");
      try {
        return { _tag: "Right", right: sampler?.sample(source, { ticks: 2500 }, operation) };
      } catch {
        return (load().generateStatic as typeof generateStatic)(operation, source);
      }
    };
    return { generateStatic };
  };
}

/** Prism in Node: required from its dist/, the generator and callback runner deferred. */
function nodePrism(modules: typeof import("node:module")): PrismModules {
  const require = modules.createRequire(import.meta.url);
  const deferred = [
    "mocker/generator/JSONSchema.js",
    "mocker/callback/callbacks.js",
    "validator/validators/security/index.js",
  ];
  for (const name of deferred) {
    const path = require.resolve(`${DIST}/${name}`);
    DEFERRED_MODULES.push(path);
    const early = name === deferred[0] ? staticGeneration(modules, path) : undefined;
    // A module already loaded (by whoever loaded Prism before us) is left alone.
    if (require.cache[path] === undefined) {
      require.cache[path] = standIn(modules, require, path, early);
    }
  }
  /** Prism's own dependencies, required as Prism requires them. */
  const prismRequire = modules.createRequire(require.resolve("@stoplight/prism-http"));
  return {
    router: require(`${DIST}/router/index.js`),
    validator: require(`${DIST}/validator/index.js`),
    validators: require(`${DIST}/validator/validators/index.js`),
    headers: require(`${DIST}/validator/validators/headers.js`),
    mediaTypes: require(`${DIST}/validator/utils/wildcardMediaTypeMatch.js`),
    mocker: () => require(`${DIST}/mocker/index.js`),
    schemaUtils: require(`${DIST}/validator/validators/utils.js`),
    schemaFilters: require(`${DIST}/utils/filterRequiredProperties.js`),
    dateTime: require(`${DIST}/validator/validators/dateTime.js`),
    mergeAllOf: prismRequire("@stoplight/json-schema-merge-allof"),
    ajv: (module) => prismRequire(module === "formats" ? "ajv-formats" : DRAFTS[module]),
    operations: () => require(`${DIST}/utils/operations.js`),
  };
}

/**
 * Prism in a browser: the same modules, bundled by name (the browser build resolves Prism's own
 * dependencies as Prism does). Its check of a value against a schema is Prism's own, each time.
 */
function bundledPrism(): PrismModules {
  return {
    router: require("@stoplight/prism-http/dist/router/index.js"),
    validator: require("@stoplight/prism-http/dist/validator/index.js"),
    validators: require("@stoplight/prism-http/dist/validator/validators/index.js"),
    headers: require("@stoplight/prism-http/dist/validator/validators/headers.js"),
    mediaTypes: require("@stoplight/prism-http/dist/validator/utils/wildcardMediaTypeMatch.js"),
    mocker: () => require("@stoplight/prism-http/dist/mocker/index.js"),
    schemaUtils: require("@stoplight/prism-http/dist/validator/validators/utils.js"),
    schemaFilters: require("@stoplight/prism-http/dist/utils/filterRequiredProperties.js"),
    dateTime: require("@stoplight/prism-http/dist/validator/validators/dateTime.js"),
    mergeAllOf: require("@stoplight/json-schema-merge-allof"),
    ajv: undefined,
    operations: undefined,
  };
}

const prism = nodeModules === undefined ? bundledPrism() : nodePrism(nodeModules);
const { router, validator, validators, headers, mediaTypes, schemaUtils, schemaFilters } = prism;
const { mergeAllOf } = prism;

/** Prism's router: the operation of `resources` that serves a request, or its refusal. */
export const prismRoute: Route = defaultOf(router as unknown as Route);
let mocker: MockerModule | undefined;
/** Prism's mocker: the answer to a request that reached an operation (its module loaded then). */
export const prismMock: Mock = (options) => {
  mocker ??= prism.mocker();
  return mocker.default(options);
};
export const validateOutput: ValidateOutput = validator.validateOutput;
/** Prism's security check, read from its module only when it first judges a request. */
export const validateSecurity: ValidatorModule["validateSecurity"] = (options) =>
  validator.validateSecurity(options);
export const validateBody: ValidatorsModule["validateBody"] = validators.validateBody;
export const validateHeaders: ValidatorsModule["validateHeaders"] = validators.validateHeaders;
export const validatePath: ValidatorsModule["validatePath"] = validators.validatePath;
export const validateQuery: ValidatorsModule["validateQuery"] = validators.validateQuery;
export const { parseMIMEHeader } = headers;
export const { wildcardMediaTypeMatch } = mediaTypes;
type ValidateAgainstSchema = SchemaUtilsModule["validateAgainstSchema"];
/** A compiled check, as Ajv makes it. */
type AjvCheck = (value: unknown) => boolean;
type Ajv = { compile(schema: object): AjvCheck; addFormat(name: string, format: unknown): unknown };

/** Prism's `validateAgainstSchema` (its Ajv instances, its compiled-function cache). */
const prismsValidateAgainstSchema: ValidateAgainstSchema = schemaUtils.validateAgainstSchema;

/**
 * Prism's check of a value against a schema, with what passes decided without Prism's fp-ts
 * pipeline, which cost several times what the compiled check itself does. The check is compiled
 * once per schema and bundle as Prism compiles it (createAjvInstances, assignAjvInstance and
 * getValidationFunction of its dist/validator/validators/utils.js): the same Ajv, options and
 * formats, the instance chosen by `$schema` and `coerce`. A value it fails, or a schema it cannot
 * compile or a check that throws, goes to Prism's own, so every finding is Prism's. One thing
 * Prism's Ajv does is left out: checking each schema against its draft's meta-schema, which
 * compiles the meta-schema first (a tenth of the CPU of a `payments-mock fixtures` run). Prism
 * finds nothing in a value against a schema that fails its meta-schema (its compile throws, and
 * Prism's `validateAgainstSchema` then answers none); here such a schema's check passes the value
 * (none) or fails it (Prism's own: none), so the findings are the same.
 */
const compiledValidateAgainstSchema: ValidateAgainstSchema = (
  value,
  schema,
  coerce,
  context,
  prefix,
  bundle,
) => {
  const check = compiledCheck(schema, coerce, bundle);
  try {
    if (check?.(value) === true) return NONE;
  } catch {
    // Prism's to judge (it finds nothing in a check that throws).
  }
  return prismsValidateAgainstSchema(value, schema, coerce, context, prefix, bundle);
};

/** Prism's check of a value against a schema: compiled once where Prism's Ajv can be loaded apart. */
export const validateAgainstSchema: ValidateAgainstSchema =
  prism.ajv === undefined ? prismsValidateAgainstSchema : compiledValidateAgainstSchema;

/** fp-ts's `none`, as Prism returns it. */
const NONE = { _tag: "None" } as const;

/** Prism's key for a check compiled without a bundle. */
const NO_BUNDLE = {};
/** Per schema and bundle, the compiled check (null: it did not compile). Like Prism's, not keyed by `coerce`. */
const checks = new WeakMap<object, WeakMap<object, AjvCheck | null>>();

function compiledCheck(
  schema: Parameters<ValidateAgainstSchema>[1],
  coerce: boolean,
  bundle: unknown,
): AjvCheck | undefined {
  const bundleKey = typeof bundle === "object" && bundle !== null ? bundle : NO_BUNDLE;
  let byBundle = checks.get(schema);
  if (byBundle === undefined) {
    byBundle = new WeakMap();
    checks.set(schema, byBundle);
  }
  let check = byBundle.get(bundleKey);
  if (check === undefined) {
    try {
      check = ajvFor(String(schema.$schema), coerce).compile({ ...schema, __bundled__: bundle });
    } catch {
      check = null;
    }
    byBundle.set(bundleKey, check);
  }
  return check ?? undefined;
}

const DRAFTS = {
  default: "ajv",
  draft2019_09: "ajv/dist/2019",
  draft2020_12: "ajv/dist/2020",
} as const;
const ajvs = new Map<string, Ajv>();

/** Prism's `assignAjvInstance`: the draft by `$schema`, coercing or not; each made when first used. */
function ajvFor($schema: string, coerce: boolean): Ajv {
  const draft = /^https?:\/\/json-schema.org\/draft\/2019-09\/schema#?$/.test($schema)
    ? "draft2019_09"
    : /^https?:\/\/json-schema.org\/draft\/2020-12\/schema#?$/.test($schema)
      ? "draft2020_12"
      : "default";
  const key = `${draft} ${coerce}`;
  let ajv = ajvs.get(key);
  if (ajv === undefined) {
    ajv = prismsAjv(draft, coerce);
    ajvs.set(key, ajv);
  }
  return ajv;
}

/**
 * An Ajv instance as Prism's `createAjvInstances` makes it, but that does not check schemas against
 * their meta-schema (see compiledValidateAgainstSchema).
 */
function prismsAjv(module: keyof typeof DRAFTS, coerce: boolean): Ajv {
  const load = prism.ajv as NonNullable<PrismModules["ajv"]>;
  const AjvClass = (load(module) as { default: new (options: object) => Ajv }).default;
  const addFormats = (load("formats") as { default: (ajv: Ajv) => void }).default;
  const { dateTime } = prism;
  const ajv = new AjvClass({
    allErrors: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    strict: false,
    logger: unknownFormatSilencer,
    coerceTypes: coerce,
    validateSchema: false,
  });
  addFormats(ajv);
  ajv.addFormat("date-time", dateTime.fmtDef(dateTime.date_time, dateTime.compareDateTime));
  return ajv;
}

/** Prism's logger for its Ajv instances: an unknown format is no news. */
const unknownFormatSilencer = {
  warn(...args: unknown[]) {
    if (typeof args[0] === "string" && args[0].startsWith("unknown format")) return;
    console.warn(...args);
  },
  log: console.log,
  error: console.error,
};

/**
 * The schema Prism's body validator checks a request body against (`validate` in its
 * dist/validator/validators/body.js, by its `withoutAllOf` and `stripReadOnlyProperties`), or
 * undefined when it checks nothing. Prism remembers it per schema; so does the caller.
 */
export function requestBodySchema(schema: Schema): Schema | undefined {
  let merged: Schema;
  try {
    merged = mergeAllOf(schema, { deep: true, ignoreAdditionalProperties: true });
  } catch {
    merged = schema;
  }
  const stripped = schemaFilters.stripReadOnlyProperties(merged);
  return stripped._tag === "Some" ? stripped.value : undefined;
}

/**
 * Prism's reading of a spec (a file, or a document as JSON, which it dereferences in place) into
 * its operations; its OpenAPI reader loads only when called.
 */
export async function readSpecOperations(spec: string | object): Promise<Operations> {
  if (prism.operations === undefined) {
    throw new Error(
      "Prism's OpenAPI reader is not in the browser build: give the engine its operations read before",
    );
  }
  const { getHttpOperationsFromSpec } = prism.operations();
  return getHttpOperationsFromSpec(spec);
}
