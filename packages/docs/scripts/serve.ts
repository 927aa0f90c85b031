// `npm start` in this package: serves the built dist/ on $HOST:$PORT (127.0.0.1:4020), the
// console sending to the sandbox at $SANDBOX_URL if set (see src/static-server.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import { distDir } from "../src/built-paths.ts";
import { consoleTarget, serveOnConfiguredPort } from "../src/static-server.ts";

if (!existsSync(path.join(distDir, "index.html"))) {
  console.error("\u2716 dist/index.html is missing: run `npm run build` first");
  process.exit(1);
}
const { url, close } = await serveOnConfiguredPort(distDir);
console.log(`\u25b8 API docs: ${url}${consoleTarget()}`);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => close().then(() => process.exit(0)));
}
