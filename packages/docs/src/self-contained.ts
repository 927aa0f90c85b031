// Turns the page `redocly build-docs` renders into one that loads nothing from another host.
// Redoc's output imports its script from cdn.redocly.com (inline, as a module) and its runtime
// shows Redocly's logo from cdn.redoc.ly; both are replaced by files shipped in dist/assets, and
// the page gets a strict Content-Security-Policy so that anything missed fails loudly.
import { createHash } from "node:crypto";

const CSP_PLACEHOLDER = "%CONTENT_SECURITY_POLICY%";
export const REDOC_SCRIPT = "assets/redoc.standalone.js";
export const INIT_SCRIPT = "assets/redoc-init.js";

/** Redoc's runtime URLs that a browser would fetch, and the local files that replace them. */
const BUNDLE_REPLACEMENTS: [remote: string, local: string][] = [
  ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "assets/redoc-logo-full.svg"],
  ["https://cdn.redoc.ly/redoc/logo-mini.svg", "assets/redoc-logo.svg"],
];

const HYDRATE_SCRIPT =
  /<script type="module">\s*import \{ hydrate \} from "https:\/\/cdn\.redocly\.com\/[^"]+";([\s\S]*?)<\/script>/g;
const CDN_PRELOAD = /<link rel="modulepreload" href="https:\/\/cdn\.redocly\.com\/[^"]*"[^>]*>/g;
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

export function selfContainedPage(
  html: string,
  initScriptFile = INIT_SCRIPT,
): { html: string; initScript: string } {
  const hydrate = [...html.matchAll(HYDRATE_SCRIPT)];
  if (hydrate.length !== 1) {
    throw new Error(
      `Expected one Redoc hydration script importing from cdn.redocly.com, found ${hydrate.length}; ` +
        "has @redocly/cli changed its output?",
    );
  }
  const [hydrateTag, hydrateBody = ""] = hydrate[0] as RegExpExecArray;
  const initScript = `import { hydrate } from "./redoc.standalone.js";\n${dedent(hydrateBody)}\n`;
  let page = hashRoutedLinks(
    html
      .replace(hydrateTag, `<script type="module" src="${initScriptFile}"></script>`)
      .replace(CDN_PRELOAD, ""),
  );
  if (!page.includes(CSP_PLACEHOLDER)) {
    throw new Error(`The template must hold a CSP meta tag with content="${CSP_PLACEHOLDER}"`);
  }
  page = page.replace(CSP_PLACEHOLDER, contentSecurityPolicy(page));
  const external = externalResources(page);
  if (external.length) {
    throw new Error(`The page would load from other hosts: ${external.join(", ")}`);
  }
  return { html: page, initScript };
}

/**
 * Redoc renders its links as paths (`/customers`) but, hydrated from a static page, routes by
 * hash (`#/customers`). Writing the links as the router does keeps them working when opened in a
 * new tab or from a plain static host, where `/customers` does not exist.
 */
export function hashRoutedLinks(html: string) {
  return html.replace(/(<a\b[^>]*?\shref=")\/(?!\/)/g, "$1#/");
}

/** Redoc's script with the URLs it would fetch from Redocly's CDN pointed at local files. */
export function localRedocBundle(source: string) {
  let bundle = source;
  for (const [remote, local] of BUNDLE_REPLACEMENTS) {
    if (!bundle.includes(remote)) {
      throw new Error(`Expected ${remote} in Redoc's bundle; has @redocly/cli changed it?`);
    }
    bundle = bundle.replaceAll(remote, local);
  }
  return bundle;
}

/**
 * Where the page may send requests when it is served as static files: its own origin, and a
 * sandbox on this machine, which the console then calls directly (the mock answers CORS). The
 * docs server, which forwards to its sandbox on the page's own origin, serves `'self'` alone.
 */
export const STATIC_CONNECT_SRC = "connect-src 'self' http://127.0.0.1:* http://localhost:*";

/**
 * Everything from this origin only (requests also to a sandbox on this machine, see
 * STATIC_CONNECT_SRC). The one inline script Redoc renders (it picks the colour mode
 * before first paint, inside the server-rendered markup that React hydrates, so it cannot move
 * to a file) is allowed by its hash. Styles need 'unsafe-inline': Redoc's styled-components
 * insert <style> elements and React renders style attributes at runtime.
 */
function contentSecurityPolicy(html: string) {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) =>
      `'sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    STATIC_CONNECT_SRC,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * Absolute http(s) URLs the page would load by itself: script, style, image, frame and media
 * sources, preloads and CSS `url()`s. Hyperlinks (`<a href>`) are followed only when clicked.
 */
export function externalResources(html: string): string[] {
  const tagSources = [
    ...html.matchAll(/<(script|link|img|iframe|source|video|audio|embed)\b[^>]*>/gi),
  ]
    .flatMap(([tag]) => [...tag.matchAll(/\s(?:src|href|srcset|poster)="([^"]*)"/gi)])
    .map(([, url]) => url ?? "");
  const cssUrls = [...html.matchAll(/url\(\s*['"]?([^'")]+)/gi)].map(([, url]) => url ?? "");
  const cssImports = [...html.matchAll(/@import\s+['"]([^'"]+)/gi)].map(([, url]) => url ?? "");
  return [...tagSources, ...cssUrls, ...cssImports].filter((url) => /^(https?:)?\/\//i.test(url));
}

function dedent(text: string) {
  const lines = text.replace(/^\s*\n|\s+$/g, "").split("\n");
  const indent = Math.min(
    ...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)?.[0].length ?? 0),
  );
  return lines.map((line) => line.slice(indent)).join("\n");
}
