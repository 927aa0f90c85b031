// The Test mode part's readiness page: readiness.html, which reads GET /_sandbox/readiness for
// the console's key and shows the checklist and the grid of operations × statuses. A plain page
// with one script of its own (console/readiness.ts, bundled by esbuild) and a strict
// Content-Security-Policy: its own files, and requests to the sandbox (the docs server narrows
// them to its own origin, as for the consoles).
import { copyFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bundleConsoleEntry } from "./build-console.ts";
import { STATIC_CONNECT_SRC } from "./self-contained.ts";

export const READINESS_PAGE = "readiness.html";
const READINESS_SCRIPT = "assets/readiness.js";
const READINESS_STYLES = "assets/readiness.css";

const packageDir = path.resolve(import.meta.dirname, "..");

const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  STATIC_CONNECT_SRC,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** Writes the page, its script and its stylesheet into the site folder. */
export function writeReadinessPage(
  siteDir: string,
  {
    apiKey,
    sandboxUrl,
    testModePage,
  }: { apiKey: string; sandboxUrl: string; testModePage: string },
) {
  bundleConsoleEntry(
    [
      'import { startReadinessPage } from "./readiness.ts";',
      `startReadinessPage(${JSON.stringify({ apiKey })});`,
    ],
    "readiness-entry.ts",
    path.join(siteDir, READINESS_SCRIPT),
  );
  copyFileSync(
    path.join(packageDir, "template/readiness.css"),
    path.join(siteDir, READINESS_STYLES),
  );
  writeFileSync(path.join(siteDir, READINESS_PAGE), page(sandboxUrl, testModePage));
}

function page(sandboxUrl: string, testModePage: string) {
  const attribute = (text: string) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  return `<!doctype html>
<html lang="en">
<head>
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="payments-sandbox-url" content="${attribute(sandboxUrl)}">
<meta name="payments-sandbox-proxy" content="">
<title>Readiness — Partner Payments API test mode</title>
<link rel="icon" href="assets/favicon.svg">
<link rel="stylesheet" href="${READINESS_STYLES}">
<script type="module" src="${READINESS_SCRIPT}"></script>
</head>
<body>
<nav><a href="index.html">API reference</a> · <a href="${testModePage}">Test mode reference</a> · <a href="guides/index.html">Guides</a> · <a href="guides/readiness.html">Ready to go live</a></nav>
<h1>Readiness</h1>
<p>What the integration of the partner of this API key has shown in the sandbox, checked against the readiness profile: each check passed, failed or not run (no evidence yet), and the API's operations by the statuses they answered. It reads <code>GET /_sandbox/readiness</code> with the key the consoles send.</p>
<main id="readiness"></main>
</body>
</html>
`;
}
