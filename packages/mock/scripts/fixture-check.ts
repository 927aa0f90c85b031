// After the build: the fixture schema's check as Ajv's standalone code (dist/fixture-check.cjs),
// the same compile src/fixtures/fixture-check.ts makes, with the schema's text it was made from,
// so that `payments-mock fixtures` and `trigger` start without compiling the schema.
import { writeFileSync } from "node:fs";
import standalone from "ajv/dist/standalone/index.js";
import schema from "../src/fixtures/fixture.schema.json" with { type: "json" };
import {
  fixtureSchemaAjv,
  fixtureSchemaText,
  STORED_CHECK,
} from "../src/fixtures/fixture-check.ts";

const ajv = fixtureSchemaAjv();
ajv.addSchema(schema);
const code = standalone.default(ajv, { check: schema.$id });
writeFileSync(
  new URL(`../dist/${STORED_CHECK}`, import.meta.url),
  `${code}\nexports.schemaText = ${JSON.stringify(fixtureSchemaText())};\n`,
);
