// A small static file server for dist/ on node:http: GET and HEAD only, files inside the root
// only, `/` serves index.html. Given a sandbox, it also forwards /sandbox/… to it for the
// console (sandbox-proxy.ts) and serves the page set up for it (served-page.ts). The package's
// `npm start` (scripts/serve.ts) serves dist/ with it.
import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Duplex, pipeline } from "node:stream";
import { REDOC_PAGES } from "./pages.ts";
import { READINESS_PAGE } from "./readiness-page.ts";
import { forwardToSandbox, PROXY_PREFIX } from "./sandbox-proxy.ts";
import { builtSandboxUrl, initScriptWithSandbox, pageWithSandbox } from "./served-page.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  // The one XML file of the site is the changelog's Atom feed.
  ".xml": "application/atom+xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

const CONNECTION_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  // How often Node checks the two timeouts above; its default (30 s) would blur them.
  connectionsCheckingInterval: 1_000,
};

/**
 * Serves the files under `root` until `close()` is called; port 0 picks a free port. With
 * `sandbox` (the sandbox's URL), the console sends through this server to it.
 */
export async function startStaticServer({
  root,
  port = 0,
  host = "127.0.0.1",
  sandbox,
}: {
  root: string;
  port?: number;
  host?: string;
  sandbox?: string | undefined;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const base = path.resolve(root);
  const sandboxUrl = sandbox === undefined ? undefined : new URL(sandbox);
  // A client that never finishes its request gets a 408 within seconds, not Node's minute and more
  // (the mock's limits: packages/engine's serve.ts).
  const server = createServer(CONNECTION_LIMITS, (req, res) => {
    if (sandboxUrl && req.url?.startsWith(PROXY_PREFIX)) {
      forwardToSandbox(req, res, sandboxUrl);
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const file = resolveFile(base, req.url ?? "/");
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    if (typeof file !== "string") {
      res
        .writeHead(301, { Location: file.redirect, "Content-Type": "text/plain; charset=utf-8" })
        .end(`Moved to ${file.redirect}\n`);
      return;
    }
    let rewritten: string | undefined;
    try {
      rewritten = sandbox === undefined ? undefined : servedWithSandbox(base, file, sandbox);
    } catch (error) {
      res
        .writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
        .end(`Cannot serve ${file}: ${error instanceof Error ? error.message : error}\n`);
      return;
    }
    res.writeHead(200, {
      "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Length": rewritten ? Buffer.byteLength(rewritten) : statSync(file).size,
      // The site is rebuilt in place during development: always revalidate.
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
    if (req.method === "HEAD") res.end();
    else if (rewritten !== undefined) res.end(rewritten);
    // A file that cannot be read after all (its permissions, a rebuild that removed it) ends the
    // answer short; unhandled, its error would stop the server.
    else pipeline(createReadStream(file), res, () => {});
  });
  // A client that takes this server for its HTTPS proxy asks for a tunnel (CONNECT), which Node
  // would drop without a word.
  server.on("connect", (_req, socket: Duplex) => {
    socket.on("error", () => {});
    socket.end(
      "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 19\r\nConnection: close\r\n\r\nMethod not allowed\n",
    );
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

/**
 * A Redoc page and its init script as served beside `sandbox` (read per request: `dev` rebuilds
 * them in place); other files as they are (undefined).
 */
function servedWithSandbox(base: string, file: string, sandbox: string): string | undefined {
  const name = path.relative(base, file).split(path.sep).join("/");
  if (name === READINESS_PAGE) {
    return pageWithSandbox(readFileSync(file, "utf8"), sandbox.replace(/\/+$/, ""));
  }
  const redocPage = REDOC_PAGES.find(({ page, init }) => name === page || name === init);
  if (!redocPage) return undefined;
  const page = readFileSync(path.join(base, redocPage.page), "utf8");
  const sandboxUrl = sandbox.replace(/\/+$/, "");
  if (name === redocPage.page) return pageWithSandbox(page, sandboxUrl);
  return initScriptWithSandbox(readFileSync(file, "utf8"), builtSandboxUrl(page), sandboxUrl);
}

/**
 * Serves `root` on $HOST:$PORT (default 127.0.0.1:4020), forwarding to the sandbox at
 * $SANDBOX_URL when it is set; exits with a clear message when it cannot.
 */
export function serveOnConfiguredPort(root: string) {
  return startStaticServer({
    root,
    // Set but empty is unset, as for payments-mock: an empty HOST is no licence to listen on
    // every interface, nor an empty PORT to pick a random one.
    port: Number(process.env.PORT || 4020),
    host: process.env.HOST || "127.0.0.1",
    sandbox: process.env.SANDBOX_URL || undefined,
  }).catch((error: Error) => {
    console.error(`\u2716 cannot serve the docs: ${error.message} (set PORT to use another port)`);
    process.exit(1);
  });
}

/** What the CLIs print about where the console sends. */
export function consoleTarget() {
  const sandbox = process.env.SANDBOX_URL;
  return sandbox
    ? ` (the console sends to the sandbox at ${sandbox} through /sandbox/)`
    : " (no SANDBOX_URL: the console asks for the sandbox's URL, and with none there runs one in the page)";
}

/**
 * The file a request path names, or undefined when there is none or it lies outside `base`. A
 * folder named without its trailing slash is redirected to it (its page's relative links need it).
 */
function resolveFile(base: string, url: string): string | { redirect: string } | undefined {
  let pathname: string;
  let search: string;
  try {
    const parsed = new URL(url, "http://localhost");
    pathname = decodeURIComponent(parsed.pathname);
    search = parsed.search;
  } catch {
    return undefined;
  }
  const candidate = path.resolve(base, `.${pathname}`);
  if (!within(base, candidate)) return undefined;
  // The site has no dotfiles; one in the folder (.env, .git/) is someone's, not the site's.
  if (
    path
      .relative(base, candidate)
      .split(path.sep)
      .some((part) => part.startsWith("."))
  ) {
    return undefined;
  }
  const folder = existsSync(candidate) && statSync(candidate).isDirectory();
  const file = folder ? path.join(candidate, "index.html") : candidate;
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  // A symbolic link in the folder may point out of it: what it points at must lie inside too.
  if (!within(realpathSync(base), realpathSync(file))) return undefined;
  // Relative to the request's path ("./name/"), so that no path makes it another host's URL.
  if (folder && !pathname.endsWith("/")) {
    return { redirect: `./${encodeURIComponent(path.basename(candidate))}/${search}` };
  }
  return file;
}

function within(base: string, file: string) {
  return file === base || file.startsWith(base + path.sep);
}
