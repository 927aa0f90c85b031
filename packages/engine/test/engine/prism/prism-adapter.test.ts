// The adapter is the mock's only door into Prism's internals. It is written against one Prism
// version; its stand-ins keep Prism's generator and callback runner unloaded until the mocker
// uses them, and then the mocker gets the modules' own exports.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { PRISM_HTTP_VERSION } from "../../../src/engine/prism/prism-adapter.js";

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
import { DEFERRED_MODULES, prismMock } from ${JSON.stringify(fileURLToPath(new URL("../../../src/engine/prism/prism-adapter.ts", import.meta.url)))};
const require = createRequire(${JSON.stringify(import.meta.url)});
const standIns = DEFERRED_MODULES.map((path) => require.cache[path]);
const loaded = () => [
  ...DEFERRED_MODULES.map((path, index) => require.cache[path] !== standIns[index]),
  Object.keys(require.cache).some((path) => path.includes("/json-schema-faker/")),
];
const before = loaded();
const generator = require(DEFERRED_MODULES[0]);
const sample = generator.generateStatic({}, { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] });
const runCallback = typeof require(DEFERRED_MODULES[1]).runCallback;
console.log(JSON.stringify({
  before,
  after: loaded(),
  mockerLoaded: typeof prismMock === "function",
  sample: sample._tag === "Right" ? sample.right : sample.left.message,
  runCallback,
  sameExports: generator.generate === require(DEFERRED_MODULES[0]).generate,
}));
`;

it("loads Prism's generator and callback runner only when they are used", () => {
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  const found = JSON.parse(output);
  expect(found).toMatchObject({
    before: [false, false, false],
    after: [true, true, true],
    mockerLoaded: true,
    runCallback: "function",
    sameExports: true,
  });
  expect(found.sample.id).toMatch(/^[0-9a-f-]{36}$/);
});
