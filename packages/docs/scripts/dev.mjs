#!/usr/bin/env node
// Development loop: builds the site, serves dist/ on $HOST:$PORT (127.0.0.1:4020) and rebuilds
// when the spec, a sample, the template or the Redocly config changes. A failed rebuild is
// reported and the last good site stays up.
import { watch } from "node:fs";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { buildSite, distDir } from "./build.mjs";
import { samplesDir } from "./code-samples.mjs";
import { serveOnConfiguredPort } from "./serve.mjs";

const packageDir = path.resolve(import.meta.dirname, "..");
// Folders, not files: editors that save by renaming would end a watch on the file itself.
/** @type {[string, (file: string) => boolean][]} */
const watched = [
  [path.dirname(specPath), (file) => file === path.basename(specPath)],
  [samplesDir, () => true],
  [path.join(packageDir, "template"), () => true],
  [packageDir, (file) => file === "redocly.yaml"],
];

/** @param {string} reason */
function rebuild(reason) {
  try {
    buildSite();
    console.log(`\u2714 docs rebuilt (${reason})`);
  } catch (error) {
    console.error(
      `\u2716 docs rebuild failed (${reason}): ${error instanceof Error ? error.message : error}`,
    );
  }
}

rebuild("start");
const { url, close } = await serveOnConfiguredPort(distDir);
console.log(`\u25b8 API docs: ${url} (rebuilding on changes to the spec, samples and template)`);

// Editors save in bursts (write, rename, chmod): rebuild once they are done.
/** @type {NodeJS.Timeout | undefined} */
let timer;
const watchers = watched.map(([dir, matches]) =>
  watch(dir, (_event, file) => {
    if (!file || !matches(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => rebuild(path.relative(packageDir, path.join(dir, file))), 200);
  }),
);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    for (const watcher of watchers) watcher.close();
    close().then(() => process.exit(0));
  });
}
