// `npm run dev` in this package: builds the site, serves it and rebuilds it on every change (see
// src/dev-server.ts).
import { startDocsDev } from "../src/dev-server.ts";
import { consoleTarget } from "../src/static-server.ts";

const { url, close } = await startDocsDev();
console.log(`\u25b8 API docs: ${url}${consoleTarget()}; rebuilding on changes`);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => close().then(() => process.exit(0)));
}
