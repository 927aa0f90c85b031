// `build` of each published package: tsdown with the package's own tsdown.config.ts, through tsdown's
// API rather than its CLI, so that two of its checks can be switched off: the CommonJS build is
// deliberate (consumers that `require` us), and plugin timings are tsdown's own performance notes.
// The declarations of its outputs come from one compilation (tsgo-once.ts), kept meanwhile in a
// temp folder of the build's own.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const fromPackage = createRequire(`${process.cwd()}/package.json`);
// tsdown resolves from the package being built, so its types are not visible from here.
const { build }: { build(options: object): Promise<unknown> } = await import(
  pathToFileURL(fromPackage.resolve("tsdown")).href
);

const shared = mkdtempSync(join(tmpdir(), "payments-declarations-"));
process.env.PAYMENTS_TSGO_SHARED = shared;
try {
  await build({ checks: { legacyCjs: false, pluginTimings: false } });
} finally {
  rmSync(shared, { recursive: true, force: true });
}
