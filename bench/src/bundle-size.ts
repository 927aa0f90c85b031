// Bundle size: an app that makes one call, bundled for the browser by esbuild, minified, gzipped;
// and the in-page sandbox (@org/payments-mock/browser, the one file a page or the docs site loads)
// beside MSW's browser build, which a front end mocking with MSW loads anyway.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { Row } from "./results.ts";

/**
 * The client's budget, in bytes after gzip: 6,000 B at first; 700 B more for error messages that
 * say why (the body's first problem, a connection failure's origin and code, which timeout fired,
 * the request id and replay flag); 150 B more for taking a short API key out of a message only
 * where it stands apart, and out of an error body's JSON strings only, so that a sandbox key such
 * as `0` or `test` no longer corrupts numbers, words and JSON; 300 B more for refusing what sent
 * the key elsewhere or a call to another route (a redirect is not followed, the key's URL-encoded
 * and `\/` forms are redacted, a path parameter empty, `.` or `..` is refused, and so are a lone
 * surrogate, a bad per-call header, and a baseUrl with credentials, a query or a fragment) and for
 * an empty 2xx body said as such.
 */
export const BUNDLE_BUDGET_BYTES = 7150;

/** The in-page sandbox's budget, in bytes after gzip (issue 61). */
export const IN_PAGE_BUDGET_BYTES = 400_000;

export const apps = {
  client: new URL("./apps/client-app.ts", import.meta.url),
  openapiFetch: new URL("./apps/openapi-fetch-app.ts", import.meta.url),
  msw: new URL("./apps/msw-worker-app.ts", import.meta.url),
};

/** The in-page sandbox as the mock's build ships it (dist/browser.mjs, already minified). */
export function inPageSandbox(): { code: string; gzippedBytes: number } {
  const file = fileURLToPath(import.meta.resolve("@org/payments-mock/browser"));
  const contents = readFileSync(file);
  return {
    code: contents.toString("utf8"),
    gzippedBytes: gzipSync(contents, { level: 9 }).byteLength,
  };
}

export async function bundleApp(
  entry: URL,
): Promise<{ code: string; minifiedBytes: number; gzippedBytes: number }> {
  const result = await build({
    entryPoints: [entry.pathname],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced no output for ${entry.pathname}`);
  return {
    code: output.text,
    minifiedBytes: output.contents.byteLength,
    gzippedBytes: gzipSync(output.contents, { level: 9 }).byteLength,
  };
}

export async function measureBundleSize(): Promise<Row[]> {
  const client = await bundleApp(apps.client);
  const bare = await bundleApp(apps.openapiFetch);
  const sandbox = inPageSandbox();
  const msw = await bundleApp(apps.msw);
  return [
    {
      figure: "App bundle on @org/payments-client, minified",
      value: client.minifiedBytes,
      unit: "B",
      baselineLabel: "same app on bare openapi-fetch",
      baseline: bare.minifiedBytes,
    },
    {
      figure: "App bundle on @org/payments-client, minified + gzip -9",
      value: client.gzippedBytes,
      unit: "B",
      baselineLabel: "same app on bare openapi-fetch",
      baseline: bare.gzippedBytes,
      target: {
        text: `≤ ${BUNDLE_BUDGET_BYTES} B gzipped`,
        met: client.gzippedBytes <= BUNDLE_BUDGET_BYTES,
      },
    },
    {
      figure:
        "The in-page sandbox (@org/payments-mock/browser: engine, sandbox, both documents), minified + gzip -9",
      value: sandbox.gzippedBytes,
      unit: "B",
      baselineLabel: "MSW's browser build (setupWorker, http), bundled the same way",
      baseline: msw.gzippedBytes,
      target: {
        text: `≤ ${IN_PAGE_BUDGET_BYTES.toLocaleString("en-US")} B gzipped`,
        met: sandbox.gzippedBytes <= IN_PAGE_BUDGET_BYTES,
      },
    },
  ];
}
