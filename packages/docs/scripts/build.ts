// Builds the reference site into dist/: writes a copy of the spec with code samples to build/,
// renders it with `redocly build-docs` and our template, then makes the page self-contained
// (see self-contained.ts). The hand-authored spec is only read.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { listOperations, loadSpec, type OpenApiDocument } from "@org/payments-spec";
import { buildConsole } from "./build-console.ts";
import { defaultBaseUrl, SANDBOX_API_KEY, withCodeSamples } from "./code-samples.ts";
import { consoleOperations } from "./console-operations.ts";
import { withConsoleSection } from "./console-section.ts";
import {
  INIT_SCRIPT,
  localRedocBundle,
  REDOC_SCRIPT,
  selfContainedPage,
} from "./self-contained.ts";

const packageDir = path.resolve(import.meta.dirname, "..");
export const distDir = path.join(packageDir, "dist");
export const buildDir = path.join(packageDir, "build");
/** The build copy of the spec, with `x-codeSamples` on every operation. */
export const builtSpecPath = path.join(buildDir, "partner-payments.json");
/** Each operation's TypeScript sample as a file, for the type check of tsconfig.samples.json. */
export const builtSamplesDir = path.join(buildDir, "samples");

const require = createRequire(import.meta.url);
const redoclyDir = path.dirname(require.resolve("@redocly/cli/package.json"));

/** Builds into a fresh folder and swaps it in, so a server reading dist/ never sees half a site. */
export function buildSite() {
  const doc = withConsoleSection(withCodeSamples(loadSpec()));
  doc.info["x-logo"] = { url: "assets/logo.svg", altText: `${doc.info.title} logo` };
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(builtSpecPath, `${JSON.stringify(doc, null, 2)}\n`);
  writeSampleFiles(doc);

  const rendered = path.join(buildDir, "redoc.html");
  renderWithRedocly(builtSpecPath, rendered, {
    title: `${doc.info.title} reference`,
    description: String(doc.info.summary ?? doc.info.title),
    sandboxUrl: defaultBaseUrl(doc),
  });

  const staging = path.join(buildDir, "site");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, "assets"), { recursive: true });
  const { html, initScript } = selfContainedPage(readFileSync(rendered, "utf8"));
  writeFileSync(path.join(staging, "index.html"), html);
  writeFileSync(path.join(staging, INIT_SCRIPT), initScript);
  const bundle = readFileSync(path.join(redoclyDir, "lib/chunks/redoc.standalone.js"), "utf8");
  writeFileSync(path.join(staging, REDOC_SCRIPT), localRedocBundle(bundle));
  buildConsole(staging, consoleOperations(doc), { apiKey: SANDBOX_API_KEY });
  for (const asset of ["favicon.svg", "logo.svg", "redoc-logo.svg", "redoc-logo-full.svg"]) {
    copyFileSync(
      path.join(packageDir, "template/assets", asset),
      path.join(staging, "assets", asset),
    );
  }

  rmSync(distDir, { recursive: true, force: true });
  renameSync(staging, distDir);
  return { distDir, operations: listOperations(doc).length };
}

function writeSampleFiles(doc: OpenApiDocument) {
  rmSync(builtSamplesDir, { recursive: true, force: true });
  mkdirSync(builtSamplesDir, { recursive: true });
  for (const { operationId, operation } of listOperations(doc)) {
    const [typescript] = operation["x-codeSamples"] as { source: string }[];
    writeFileSync(path.join(builtSamplesDir, `${operationId}.ts`), `${typescript?.source}\n`);
  }
}

function renderWithRedocly(
  specFile: string,
  output: string,
  { title, description, sandboxUrl }: { title: string; description: string; sandboxUrl: string },
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { operations } = buildSite();
  console.log(
    `\u2714 built ${path.relative(process.cwd(), distDir) || "."}/index.html (${operations} operations, each with TypeScript and curl samples and a console)`,
  );
}
