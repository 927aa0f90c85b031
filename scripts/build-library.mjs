#!/usr/bin/env node
// `build` of each published package: tsdown with the package's own tsdown.config.ts, through tsdown's
// API rather than its CLI. The CLI prints, on every Node below 22.18, that tsdown will drop that
// Node; this repository supports Node 20.19+ and pins tsdown, so the notice is not for our users.
// The two checks below are switched off for the same reason: the CommonJS build is deliberate
// (consumers that `require` us), and plugin timings are tsdown's own performance notes.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const fromPackage = createRequire(`${process.cwd()}/package.json`);
const { build } = await import(pathToFileURL(fromPackage.resolve("tsdown")).href);

await build({ checks: { legacyCjs: false, pluginTimings: false } });
