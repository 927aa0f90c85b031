// What the docs server changes in the built page when it forwards to a sandbox: the console then
// sends to the page's own origin (the proxy), the samples show the sandbox it was started with,
// and the page may connect to its own origin only.
import { PROXY_PREFIX } from "./sandbox-proxy.ts";
import { STATIC_CONNECT_SRC } from "./self-contained.ts";

const SANDBOX_URL_META = /<meta name="payments-sandbox-url" content="([^"]*)">/;
const SANDBOX_PROXY_META = /<meta name="payments-sandbox-proxy" content="[^"]*">/;

/** The sandbox URL the build wrote into the page: the default its samples print. */
export function builtSandboxUrl(html: string): string {
  const url = SANDBOX_URL_META.exec(html)?.[1];
  if (url === undefined) throw new Error("the built page has no payments-sandbox-url meta tag");
  return url;
}

/** index.html as served beside `sandboxUrl`. */
export function pageWithSandbox(html: string, sandboxUrl: string): string {
  if (!html.includes(STATIC_CONNECT_SRC) || !SANDBOX_PROXY_META.test(html)) {
    throw new Error("the built page lacks the console's meta tags or connect-src: rebuild it");
  }
  return html
    .replace(STATIC_CONNECT_SRC, "connect-src 'self'")
    .replace(
      SANDBOX_URL_META,
      `<meta name="payments-sandbox-url" content="${attribute(sandboxUrl)}">`,
    )
    .replace(
      SANDBOX_PROXY_META,
      `<meta name="payments-sandbox-proxy" content="${PROXY_PREFIX.slice(1)}">`,
    );
}

/**
 * Redoc's init script (which holds the spec with its samples) with the samples' default base URL
 * made the sandbox's, so that a sample copied from the page calls the sandbox the docs serve.
 */
export function initScriptWithSandbox(script: string, builtUrl: string, sandboxUrl: string) {
  // The URLs sit in JSON strings and JavaScript string literals: escaped as JSON, they fit both.
  const escaped = (url: string) => JSON.stringify(url).slice(1, -1);
  return builtUrl === "" ? script : script.replaceAll(escaped(builtUrl), escaped(sandboxUrl));
}

function attribute(text: string) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}
