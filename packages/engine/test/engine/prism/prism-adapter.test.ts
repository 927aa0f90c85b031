// The adapter is the mock's only door into Prism's internals. It is written against one Prism
// version; its stand-ins keep Prism's generator, callback runner and security check unloaded
// until they are used, and then Prism gets the modules' own exports.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import {
  PRISM_HTTP_VERSION,
  validateAgainstSchema,
} from "../../../src/engine/prism/prism-adapter.js";

it("is used with the Prism version it was written against", () => {
  const installed = (
    createRequire(import.meta.url)("@stoplight/prism-http/package.json") as { version: string }
  ).version;
  expect(
    installed,
    `@stoplight/prism-http ${installed} is installed, but src/engine/prism-adapter.ts reaches into ` +
      `the internals of ${PRISM_HTTP_VERSION}: check each module it requires against the new ` +
      "version, then update PRISM_HTTP_VERSION",
  ).toBe(PRISM_HTTP_VERSION);
});

// In a process of its own, since Prism is already loaded in this one.
const script = `
import { createRequire } from "node:module";
import { DEFERRED_MODULES, prismMock, validateSecurity } from ${JSON.stringify(fileURLToPath(new URL("../../../src/engine/prism/prism-adapter.ts", import.meta.url)))};
const require = createRequire(${JSON.stringify(import.meta.url)});
const standIns = DEFERRED_MODULES.map((path) => require.cache[path]);
const loaded = () => [
  ...DEFERRED_MODULES.map((path, index) => require.cache[path] !== standIns[index]),
  Object.keys(require.cache).some((path) => path.includes("/json-schema-faker/")),
];
const before = loaded();
const generator = require(DEFERRED_MODULES[0]);
const schema = { type: "object", properties: { id: { type: "string", format: "uuid" }, at: { type: "string", format: "date-time" } }, required: ["id"] };
const sample = generator.generateStatic({}, schema);
const sampled = loaded();
// A schema the sampler fails on is Prism's generator's to answer: that loads it.
const broken = generator.generateStatic({}, { $ref: "#/nowhere" });
const afterBroken = loaded();
const prisms = generator.generateStatic({}, schema);
const prismsBroken = generator.generateStatic({}, { $ref: "#/nowhere" });
const runCallback = typeof require(DEFERRED_MODULES[1]).runCallback;
const security = { type: "apiKey", in: "header", name: "X-API-Key", key: "api_key" };
const refused = validateSecurity({
  resource: { security: [[security]] },
  element: { headers: {}, url: { path: "/customers" } },
});
console.log(JSON.stringify({
  before,
  sampled,
  afterBroken,
  after: loaded(),
  mockerLoaded: typeof prismMock === "function",
  sample,
  prisms,
  broken: [broken._tag, broken.left?.message, broken.left instanceof Error],
  prismsBroken: [prismsBroken._tag, prismsBroken.left?.message, prismsBroken.left instanceof Error],
  runCallback,
  refused: refused._tag,
  sameExports: generator.generate === require(DEFERRED_MODULES[0]).generate,
}));
`;

it("loads Prism's generator (but to sample an answer), callback runner and security check only when they are used", () => {
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  const found = JSON.parse(output);
  expect(found).toMatchObject({
    before: [false, false, false, false],
    // Sampling an answer from its schema loads neither the generator nor Faker.
    sampled: [false, false, false, false],
    afterBroken: [true, false, false, true],
    after: [true, true, true, true],
    mockerLoaded: true,
    runCallback: "function",
    refused: "Left",
    sameExports: true,
  });
  // The stand-in's sample is the generator's own, and so is its refusal of a broken schema.
  expect(found.sample).toEqual(found.prisms);
  expect(found.sample.right.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(found.broken).toEqual(found.prismsBroken);
  expect(found.broken[0]).toBe("Left");
});

// The check of a value against a schema decides what passes with Prism's Ajv configuration
// compiled once, and leaves everything else to Prism: its findings are Prism's, for each draft
// Prism tells apart by `$schema`, coercing (headers) or not (bodies).
it("checks values against schemas as Prism's validateAgainstSchema does", () => {
  const prisms = createRequire(import.meta.url)(
    "@stoplight/prism-http/dist/validator/validators/utils.js",
  ) as { validateAgainstSchema: typeof validateAgainstSchema };
  const drafts = [
    undefined,
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2020-12/schema",
  ];
  const values = [
    { id: "3f1c2a9e-6b7d-4e21-9a4f-0c5d8e7b6a13", count: "3", at: "2026-03-02T09:15:00Z" },
    { id: "not a uuid", count: "three", at: "yesterday" },
    { id: "3f1c2a9e-6b7d-4e21-9a4f-0c5d8e7b6a13", count: 3 },
    { count: "3", extra: true },
    "a string",
    null,
  ];
  let found = 0;
  for (const $schema of drafts) {
    const schema = {
      ...($schema && { $schema }),
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string", format: "uuid" },
        count: { type: "integer", minimum: 1 },
        at: { type: "string", format: "date-time" },
      },
    } as Parameters<typeof validateAgainstSchema>[1];
    for (const coerce of [true, false]) {
      for (const value of values) {
        const ours = validateAgainstSchema(structuredClone(value), schema, coerce, 0, "body");
        const theirs = prisms.validateAgainstSchema(
          structuredClone(value),
          schema,
          coerce,
          0,
          "body",
        );
        if (theirs._tag === "Some") found++;
        expect(ours, `${$schema} coerce=${coerce} ${JSON.stringify(value)}`).toEqual(theirs);
      }
    }
  }
  expect(found).toBeGreaterThan(20);
});

// The compiled check does not check a schema against its meta-schema, as Prism's Ajv does: Prism
// finds nothing against a schema that fails it, and neither does the check.
it("finds nothing against a schema that breaks its meta-schema, as Prism's validateAgainstSchema", () => {
  const prisms = createRequire(import.meta.url)(
    "@stoplight/prism-http/dist/validator/validators/utils.js",
  ) as { validateAgainstSchema: typeof validateAgainstSchema };
  const broken = [
    { type: "string", minLength: -1 },
    // A check that fails every string: Prism's own then answers, with none.
    { type: "string", maxLength: -1 },
    { type: "object", required: "id", properties: { id: { type: "string" } } },
    { type: "strin" },
    { $schema: "https://json-schema.org/draft/2020-12/schema", type: "integer", maximum: "9" },
  ];
  const values = ["", "a string", 3, { id: 3 }, {}, null];
  for (const schema of broken as Parameters<typeof validateAgainstSchema>[1][]) {
    for (const coerce of [true, false]) {
      for (const value of values) {
        const theirs = prisms.validateAgainstSchema(value, schema, coerce, 0, "body");
        expect(theirs._tag, JSON.stringify(schema)).toBe("None");
        const ours = validateAgainstSchema(value, schema, coerce, 0, "body");
        expect(ours, `${JSON.stringify(schema)} ${JSON.stringify(value)}`).toEqual(theirs);
      }
    }
  }
});
