// Builds the reference site into dist/ (the package's `npm run build` runs scripts/build.ts): writes
// a copy of the spec with code samples to build/, renders it with `redocly build-docs` and our
// template, then makes the page self-contained (see self-contained.ts). The hand-authored spec is
// only read.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  listOperations,
  loadBundledSpec,
  loadSpec,
  type OpenApiDocument,
  testModeSpecPath,
} from "@org/payments-spec";
import {
  buildConsole,
  buildInPageSandbox,
  CONSOLE_SCRIPT,
  TEST_MODE_CONSOLE_SCRIPT,
} from "./build-console.ts";
import {
  buildDir,
  builtSamplesDir,
  builtSpecPath,
  builtTestModeSpecPath,
  distDir,
} from "./built-paths.ts";
import { CHANGELOG_PAGE, writeChangelogPages } from "./changelog-pages.ts";
import { defaultBaseUrl, SANDBOX_API_KEY, withCodeSamples } from "./code-samples.ts";
import { consoleOperations } from "./console-operations.ts";
import { withConsoleSection } from "./console-section.ts";
import { documentsSection, writeDocuments } from "./documents.ts";
import { writeGuidePages } from "./guide-pages.ts";
import { TEST_MODE_INIT_SCRIPT, TEST_MODE_PAGE } from "./pages.ts";
import { writeReadinessPage } from "./readiness-page.ts";
import {
  INIT_SCRIPT,
  localRedocBundle,
  REDOC_SCRIPT,
  selfContainedPage,
} from "./self-contained.ts";
import { testModeBuildCopy, withTestModeSection } from "./test-mode-doc.ts";

const packageDir = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const redoclyDir = path.dirname(require.resolve("@redocly/cli/package.json"));

/**
 * Builds into a fresh folder and swaps it in, so a server reading dist/ never sees half a site:
 * the API reference (index.html), the test-mode reference (test-mode.html) and the guides
 * (guides/), sharing assets/.
 */
export async function buildSite() {
  const doc = withDocumentsSection(
    withTestModeSection(withConsoleSection(withCodeSamples(loadSpec()))),
  );
  const logo = { url: "assets/logo.svg", altText: `${doc.info.title} logo` };
  doc.info["x-logo"] = logo;
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(builtSpecPath, `${JSON.stringify(doc, null, 2)}\n`);
  writeSampleFiles(doc);

  const testMode = withDocumentsSection(testModeBuildCopy(loadBundledSpec(testModeSpecPath)));
  testMode.info["x-logo"] = { ...logo, href: "index.html" };
  writeFileSync(builtTestModeSpecPath, `${JSON.stringify(testMode, null, 2)}\n`);
  writeSampleFiles(testMode, "test-mode-");

  const staging = path.join(buildDir, "site");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, "assets"), { recursive: true });
  const pages = [
    { doc, spec: builtSpecPath, page: "index.html", init: INIT_SCRIPT, title: "reference" },
    {
      doc: testMode,
      spec: builtTestModeSpecPath,
      page: TEST_MODE_PAGE,
      init: TEST_MODE_INIT_SCRIPT,
      title: "reference",
    },
  ];
  for (const { doc: pageDoc, spec, page, init, title } of pages) {
    const rendered = path.join(buildDir, `${page}.redoc.html`);
    renderWithRedocly(spec, rendered, {
      title: `${pageDoc.info.title} ${title}`,
      description: String(pageDoc.info.summary ?? pageDoc.info.title),
      sandboxUrl: defaultBaseUrl(pageDoc),
      consoleScript: page === "index.html" ? CONSOLE_SCRIPT : TEST_MODE_CONSOLE_SCRIPT,
    });
    const { html, initScript } = selfContainedPage(readFileSync(rendered, "utf8"), init);
    writeFileSync(path.join(staging, page), html);
    writeFileSync(path.join(staging, init), initScript);
  }
  const bundle = readFileSync(path.join(redoclyDir, "lib/chunks/redoc.standalone.js"), "utf8");
  writeFileSync(path.join(staging, REDOC_SCRIPT), localRedocBundle(bundle));
  buildConsole(staging, consoleOperations(doc), { apiKey: SANDBOX_API_KEY });
  buildConsole(
    staging,
    consoleOperations(testMode, { filtersStartEmpty: true }),
    { apiKey: SANDBOX_API_KEY },
    TEST_MODE_CONSOLE_SCRIPT,
  );
  buildInPageSandbox(staging);
  for (const asset of ["favicon.svg", "logo.svg", "redoc-logo.svg", "redoc-logo-full.svg"]) {
    copyFileSync(
      path.join(packageDir, "template/assets", asset),
      path.join(staging, "assets", asset),
    );
  }
  writeReadinessPage(staging, {
    apiKey: SANDBOX_API_KEY,
    sandboxUrl: defaultBaseUrl(testMode),
    testModePage: TEST_MODE_PAGE,
  });
  const guides = await writeGuidePages(staging, {
    testModeReference: `../${TEST_MODE_PAGE}`,
    changelog: `../${CHANGELOG_PAGE}`,
  });
  const documents = writeDocuments(staging);
  const changelog = await writeChangelogPages(staging);

  rmSync(distDir, { recursive: true, force: true });
  renameSync(staging, distDir);
  return {
    distDir,
    operations: listOperations(doc).length,
    testModeOperations: listOperations(testMode).length,
    guides,
    documents,
    changelog,
  };
}

/** A copy of a reference page's document whose overview ends with the links to both documents. */
function withDocumentsSection(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  copy.info.description = `${String(copy.info.description ?? "").trimEnd()}\n\n${documentsSection()}\n`;
  return copy;
}

/** Each operation's TypeScript sample as a file of build/samples/ (the API's first, emptied). */
function writeSampleFiles(doc: OpenApiDocument, prefix = "") {
  if (prefix === "") rmSync(builtSamplesDir, { recursive: true, force: true });
  mkdirSync(builtSamplesDir, { recursive: true });
  for (const { operationId, operation } of listOperations(doc)) {
    const samples = operation["x-codeSamples"] as { lang: string; source: string }[];
    const typescript = samples.find((sample) => sample.lang === "TypeScript");
    if (!typescript) continue;
    writeFileSync(
      path.join(builtSamplesDir, `${prefix}${operationId}.ts`),
      `${typescript.source}\n`,
    );
  }
}

function renderWithRedocly(
  specFile: string,
  output: string,
  {
    title,
    description,
    sandboxUrl,
    consoleScript,
  }: { title: string; description: string; sandboxUrl: string; consoleScript: string },
) {
  const result = spawnSync(
    process.execPath,
    [
      path.join(redoclyDir, "bin/cli.js"),
      "build-docs",
      specFile,
      "--config",
      path.join(packageDir, "redocly.yaml"),
      "--template",
      path.join(packageDir, "template/index.hbs"),
      "--output",
      output,
      "--title",
      title,
      "--templateOptions.description",
      description,
      "--templateOptions.sandboxUrl",
      sandboxUrl,
      "--templateOptions.consoleScript",
      consoleScript,
    ],
    {
      cwd: packageDir,
      encoding: "utf8",
      // No usage data, and no update check against the npm registry.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  if (result.status !== 0) {
    // Redocly's own banners are noise on success; on failure they are the diagnosis.
    process.stderr.write(`${result.stdout}${result.stderr}`);
    throw new Error(
      `redocly build-docs failed (${result.error?.message ?? `exit code ${result.status}`})`,
    );
  }
}
