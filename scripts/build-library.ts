// `build` of each published package: tsdown with the package's own tsdown.config.ts, through tsdown's
// API rather than its CLI, so that two of its checks can be switched off: the CommonJS build is
// deliberate (consumers that `require` us), and plugin timings are tsdown's own performance notes.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const fromPackage = createRequire(`${process.cwd()}/package.json`);
// tsdown resolves from the package being built, so its types are not visible from here.
const { build }: { build(options: object): Promise<unknown> } = await import(
  pathToFileURL(fromPackage.resolve("tsdown")).href
);

await build({ checks: { legacyCjs: false, pluginTimings: false } });
