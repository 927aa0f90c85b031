// A small static file server for dist/ on node:http: GET and HEAD only, files inside the root
// only, `/` serves index.html. Run directly, it serves dist/ on $HOST:$PORT (127.0.0.1:4020).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Serves the files under `root` until `close()` is called; port 0 picks a free port. */
export async function startStaticServer({
  root,
  port = 0,
  host = "127.0.0.1",
}: {
  root: string;
  port?: number;
  host?: string;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const base = path.resolve(root);
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const file = resolveFile(base, req.url ?? "/");
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    res.writeHead(200, {
      "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": statSync(file).size,
      // The site is rebuilt in place during development: always revalidate.
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `root` on $HOST:$PORT (default 127.0.0.1:4020); exits with a clear message when it cannot. */
export function serveOnConfiguredPort(root: string) {
  return startStaticServer({
    root,
    port: Number(process.env.PORT ?? 4020),
    host: process.env.HOST ?? "127.0.0.1",
  }).catch((error: Error) => {
    console.error(`\u2716 cannot serve the docs: ${error.message} (set PORT to use another port)`);
    process.exit(1);
  });
}

/** The file a request path names, or undefined when there is none or it lies outside `base`. */
function resolveFile(base: string, url: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://localhost").pathname);
  } catch {
    return undefined;
  }
  const candidate = path.resolve(base, `.${pathname}`);
  if (candidate !== base && !candidate.startsWith(base + path.sep)) return undefined;
  const file =
    existsSync(candidate) && statSync(candidate).isDirectory()
      ? path.join(candidate, "index.html")
      : candidate;
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = path.resolve(import.meta.dirname, "../dist");
  if (!existsSync(path.join(root, "index.html"))) {
    console.error("\u2716 dist/index.html is missing: run `npm run build` first");
    process.exit(1);
  }
  const { url, close } = await serveOnConfiguredPort(root);
  console.log(`\u25b8 API docs: ${url}`);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => close().then(() => process.exit(0)));
  }
}
