// The CLI's stand-ins for Prism's generator and callback runner: nothing loads them until the
// mocker uses them, and then the mocker gets the modules' own exports. Run in a process of its
// own, since Prism is already loaded in this one.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const script = `
import { createRequire } from "node:module";
import { DEFERRED_MODULES, deferPrismModules } from ${JSON.stringify(fileURLToPath(new URL("../src/defer-prism-modules.ts", import.meta.url)))};
const require = createRequire(${JSON.stringify(import.meta.url)});
deferPrismModules();
const standIns = DEFERRED_MODULES.map((path) => require.cache[path]);
const loaded = () => [
  ...DEFERRED_MODULES.map((path, index) => require.cache[path] !== standIns[index]),
  Object.keys(require.cache).some((path) => path.includes("/json-schema-faker/")),
];
const mocker = require("@stoplight/prism-http/dist/mocker/index.js");
const before = loaded();
const generator = require(DEFERRED_MODULES[0]);
const sample = generator.generateStatic({}, { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] });
const runCallback = typeof require(DEFERRED_MODULES[1]).runCallback;
console.log(JSON.stringify({
  before,
  after: loaded(),
  mockerLoaded: typeof mocker.default === "function",
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
