// Bundle size: an app that makes one call, bundled for the browser by esbuild, minified, gzipped.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { Row } from "./results.ts";

/**
 * The client's budget, in bytes after gzip: 6,000 B (what a browser app pays for a typed SDK of
 * this size), raised by 700 B for the error messages that say why (the body's first problem, the
 * origin and system error code of a connection failure, which timeout fired, the request id and
 * replay flag on every result).
 */
export const BUNDLE_BUDGET_BYTES = 6700;

export const apps = {
  client: new URL("./apps/client-app.ts", import.meta.url),
  openapiFetch: new URL("./apps/openapi-fetch-app.ts", import.meta.url),
};

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
  ];
}
