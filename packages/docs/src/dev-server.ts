// Development loop: builds the site, serves dist/ on $HOST:$PORT (127.0.0.1:4020) and rebuilds
// when the spec, the test-mode document, a guide, the console, the template or the Redocly config
// changes. A failed rebuild is reported and the last good site stays up. The package's
// `npm run dev` (scripts/dev.ts) runs it.
import { watch } from "node:fs";
import path from "node:path";
import { specPath, testModeSpecPath } from "@org/payments-spec";
import { buildSite } from "./build-site.ts";
import { distDir } from "./built-paths.ts";
import { serveOnConfiguredPort, startStaticServer } from "./static-server.ts";

const packageDir = path.resolve(import.meta.dirname, "..");
// Folders, not files: editors that save by renaming would end a watch on the file itself.
const watched: [string, (file: string) => boolean][] = [
  [path.dirname(specPath), (file) => file === path.basename(specPath)],
  [path.join(packageDir, "template"), () => true],
  [path.join(packageDir, "console"), () => true],
  [path.dirname(testModeSpecPath), (file) => file === path.basename(testModeSpecPath)],
  [path.join(packageDir, "guides"), (file) => file.endsWith(".md")],
  [packageDir, (file) => file === "redocly.yaml"],
];

async function rebuild(reason: string) {
  try {
    await buildSite();
    console.log(`\u2714 docs rebuilt (${reason})`);
  } catch (error) {
    console.error(
      `\u2716 docs rebuild failed (${reason}): ${error instanceof Error ? error.message : error}`,
    );
  }
}

/**
 * Builds the site, serves it on $HOST:$PORT and rebuilds it on every change; the console sends
 * to `sandbox` through the server. Default: $PORT (4020), $HOST (127.0.0.1), $SANDBOX_URL.
 */
export async function startDocsDev(
  options: { port?: number; host?: string; sandbox?: string } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  await rebuild("start");
  const server =
    options.port === undefined
      ? await serveOnConfiguredPort(distDir)
      : await startStaticServer({ root: distDir, ...options });
  // Editors save in bursts (write, rename, chmod): rebuild once they are done.
  let timer: NodeJS.Timeout | undefined;
  const watchers = watched.map(([dir, matches]) =>
    watch(dir, (_event, file) => {
      if (!file || !matches(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => rebuild(path.relative(packageDir, path.join(dir, file))), 200);
    }),
  );
  return {
    url: server.url,
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      return server.close();
    },
  };
}
