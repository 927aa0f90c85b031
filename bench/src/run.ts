// `pnpm bench`: runs every benchmark in turn, prints the table and writes RESULTS.md.
// In bench/, `pnpm bench "Sandbox stores" Mock` runs only the named sections and prints their
// table (RESULTS.md keeps the figures of full runs).
import { writeFileSync } from "node:fs";
import { measureBundleSize } from "./bundle-size.ts";
import { measureClientOverhead } from "./client-overhead.ts";
import { measureCompilers } from "./compilers.ts";
import { measureListen } from "./listen.ts";
import { measureMcp } from "./mcp.ts";
import { measureMock } from "./mock.ts";
import { measurePipeline } from "./pipeline.ts";
import { progress } from "./progress.ts";
import { measureReadiness } from "./readiness.ts";
import { measureRehearsal } from "./rehearsal.ts";
import { type Row, resultsMarkdown, resultsTable, type SectionResult } from "./results.ts";
import { measureSandboxClock } from "./sandbox-clock.ts";
import { measureSandboxPartnerMemory } from "./sandbox-partner-memory.ts";
import { measureSandboxPartners } from "./sandbox-partners.ts";
import { measureSandboxStores } from "./sandbox-store.ts";
import { measureSandboxWithoutServer } from "./sandbox-without-server.ts";
import { measureStatefulMocks } from "./stateful-mocks.ts";
import { measureStreamAcrossReplicas } from "./stream-replicas.ts";
import { measureTypeCheck } from "./type-check.ts";

const resultsFile = new URL("../RESULTS.md", import.meta.url);

const sections: [string, () => Promise<Row[]>][] = [
  ["Bundle size", measureBundleSize],
  ["Client overhead", measureClientOverhead],
  ["Type-check cost", measureTypeCheck],
  ["Compilers", measureCompilers],
  ["Mock", measureMock],
  ["Sandbox stores", measureSandboxStores],
  ["Stateful mocks", measureStatefulMocks],
  ["Sandbox clock", measureSandboxClock],
  ["Sandbox partners", measureSandboxPartners],
  ["Sandbox partner memory", measureSandboxPartnerMemory],
  ["Failure rehearsal", measureRehearsal],
  ["Readiness", measureReadiness],
  ["Sandbox without a server", measureSandboxWithoutServer],
  ["Listen", measureListen],
  ["Event stream across replicas", measureStreamAcrossReplicas],
  ["MCP server", measureMcp],
  // Last: it rewrites every package's dist/, which the sections above load.
  ["Pipeline", measurePipeline],
];

const only = process.argv.slice(2);
const unknown = only.filter((name) => !sections.some(([section]) => section === name));
if (unknown.length > 0) {
  throw new Error(
    `No bench section ${unknown.join(", ")}; the sections: ${sections.map(([s]) => s).join(", ")}`,
  );
}
const chosen = sections.filter(([section]) => only.length === 0 || only.includes(section));

const results: SectionResult[] = [];
for (const [section, measure] of chosen) {
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
if (only.length === 0) {
  writeFileSync(resultsFile, resultsMarkdown(results, new Date()));
  progress(`wrote ${resultsFile.pathname}`);
}
if (results.some((result) => "error" in result)) process.exitCode = 1;
