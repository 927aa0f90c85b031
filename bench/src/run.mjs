// `pnpm bench`: runs every benchmark in turn, prints the table and writes RESULTS.md.
import { writeFileSync } from "node:fs";
import { measureBundleSize } from "./bundle-size.mjs";
import { measureClientOverhead } from "./client-overhead.mjs";
import { measureMock } from "./mock.mjs";
import { measurePipeline } from "./pipeline.mjs";
import { progress } from "./progress.mjs";
import { resultsMarkdown, resultsTable } from "./results.mjs";
import { measureSandboxStores } from "./sandbox-store.ts";
import { measureTypeCheck } from "./type-check.mjs";

const resultsFile = new URL("../RESULTS.md", import.meta.url);

/** @type {[string, () => Promise<import("./results.mjs").Row[]>][]} */
const sections = [
  ["Bundle size", measureBundleSize],
  ["Client overhead", measureClientOverhead],
  ["Type-check cost", measureTypeCheck],
  ["Mock", measureMock],
  ["Sandbox stores", measureSandboxStores],
  // Last: it rewrites every package's dist/, which the sections above load.
  ["Pipeline", measurePipeline],
];

/** @type {import("./results.mjs").SectionResult[]} */
const results = [];
for (const [section, measure] of sections) {
  progress(`${section}…`);
  try {
    results.push({ section, rows: await measure() });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    progress(`${section} failed: ${message}`);
    results.push({ section, error: message });
  }
}

console.log(`\n${resultsTable(results)}\n`);
writeFileSync(resultsFile, resultsMarkdown(results, new Date()));
progress(`wrote ${resultsFile.pathname}`);
if (results.some((result) => "error" in result)) process.exitCode = 1;
