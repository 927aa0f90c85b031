import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_SCRIPT, TEST_MODE_CONSOLE_SCRIPT } from "../src/build-console.ts";
import { distDir } from "../src/built-paths.ts";
import { GUIDE_PAGE_CSP } from "../src/guide-pages.ts";
import { GUIDES } from "../src/guides.ts";
import { TEST_MODE_INIT_SCRIPT, TEST_MODE_PAGE } from "../src/pages.ts";
import {
  externalResources,
  hashRoutedLinks,
  INIT_SCRIPT,
  localRedocBundle,
  REDOC_SCRIPT,
  STATIC_CONNECT_SRC,
  selfContainedPage,
} from "../src/self-contained.ts";

const html = readFileSync(path.join(distDir, "index.html"), "utf8");
const policy =
  /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";

describe("the built page", () => {
  it("declares its Content-Security-Policy before any script or style", () => {
    expect(policy).toContain("default-src 'self'");
    const metaAt = html.indexOf("Content-Security-Policy");
    expect(metaAt).toBeGreaterThan(0);
    expect(metaAt).toBeLessThan(html.indexOf("<script"));
    expect(metaAt).toBeLessThan(html.indexOf("<style"));
  });

  it("runs only its own scripts: files from its origin and inline scripts listed by hash", () => {
    const scriptSources = /script-src ([^;]+)/.exec(policy)?.[1] ?? "";
    expect(scriptSources).not.toContain("unsafe-inline");
    expect(scriptSources).not.toContain("unsafe-eval");
    const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
    for (const [, body] of inline) {
      const hash = createHash("sha256")
        .update(body ?? "")
        .digest("base64");
      expect(scriptSources).toContain(`'sha256-${hash}'`);
    }
    expect(html).toContain('<script type="module" src="assets/redoc-init.js"></script>');
  });

  it("loads nothing from another host", () => {
    expect(externalResources(html)).toEqual([]);
  });

  it("loads the console from its own files and lets it call only a sandbox on this machine", () => {
    expect(html).toContain('<script type="module" src="assets/console.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="assets/console.css">');
    expect(policy).toContain(`${STATIC_CONNECT_SRC};`);
    expect(html).toContain('<meta name="payments-sandbox-url" content="http://127.0.0.1:4010">');
    expect(html).toContain('<meta name="payments-sandbox-proxy" content="">');
    expect(readdirSync(path.join(distDir, "assets"))).toContain(path.basename(CONSOLE_SCRIPT));
  });

  it("ships Redoc's script and logo itself instead of loading them from Redocly's CDN", () => {
    const initScript = readFileSync(path.join(distDir, INIT_SCRIPT), "utf8");
    const bundle = readFileSync(path.join(distDir, REDOC_SCRIPT), "utf8");
    expect(html.match(/https:\/\/cdn\.redoc[^"]*/g)).toBeNull();
    expect(initScript.match(/https:\/\/cdn\.redoc[^"]*/g)).toBeNull();
    expect(initScript).toMatch(/^import \{ hydrate \} from "\.\/redoc\.standalone\.js";/);
    expect(bundle.match(/https:\/\/cdn\.redoc\.ly\/[^`"]*/g)).toBeNull();
    for (const asset of readdirSync(path.join(distDir, "assets"))) {
      expect(asset).toMatch(/\.(js|css|svg)$/);
    }
  });

  it("is titled for the API and opens with its introduction", () => {
    expect(html).toContain("<title>Partner Payments API reference</title>");
    for (const heading of [
      "Authentication",
      "Sub-partners",
      "Idempotency",
      "Pagination",
      "Decimal values",
      "What this document leaves open",
    ]) {
      expect(html).toContain(heading);
    }
  });
});

describe("selfContainedPage", () => {
  const rendered = (head: string, body: string) =>
    `<html><head><meta http-equiv="Content-Security-Policy" content="%CONTENT_SECURITY_POLICY%">${head}</head><body>${body}</body></html>`;
  const hydrate = `<script type="module">
      import { hydrate } from "https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js";

      const __redoc_definition = {};
      hydrate(__redoc_definition, {}, document.getElementById('redoc'));
      </script>`;

  it("moves Redoc's hydration script into a file that imports the local bundle", () => {
    const preload =
      '<link rel="modulepreload" href="https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js" integrity="sha384-x" crossorigin="anonymous" />';
    const { html: page, initScript } = selfContainedPage(
      rendered(preload, `<div id="redoc"><a href="/customers">Customers</a></div>${hydrate}`),
    );
    expect(initScript).toBe(
      "import { hydrate } from \"./redoc.standalone.js\";\nconst __redoc_definition = {};\nhydrate(__redoc_definition, {}, document.getElementById('redoc'));\n",
    );
    expect(page).not.toContain("cdn.redocly.com");
    expect(page).toContain('<a href="#/customers">');
  });

  it("fails when the page would still load from another host", () => {
    expect(() =>
      selfContainedPage(rendered('<img src="https://tracker.example/p.gif">', hydrate)),
    ).toThrow("The page would load from other hosts: https://tracker.example/p.gif");
  });

  it("fails when Redoc's output no longer has the script it expects", () => {
    expect(() => selfContainedPage(rendered("", "<div id=redoc></div>"))).toThrow(
      "Expected one Redoc hydration script",
    );
  });
});

describe("externalResources", () => {
  it("finds sources, preloads and CSS urls on other hosts but not hyperlinks", () => {
    const page = `<link rel="stylesheet" href="https://fonts.example/css">
      <script src="//cdn.example/x.js"></script><img src="assets/local.svg">
      <style>@import "https://a.example/b.css"; .x{background:url('https://b.example/i.png')}</style>
      <a href="https://example.com/partner-payments">contact</a>`;
    expect(externalResources(page)).toEqual([
      "https://fonts.example/css",
      "//cdn.example/x.js",
      "https://b.example/i.png",
      "https://a.example/b.css",
    ]);
  });
});

describe("hashRoutedLinks", () => {
  it("rewrites path links to hash routes and leaves other links alone", () => {
    expect(
      hashRoutedLinks(
        '<a class="x" href="/section/pagination">p</a><a href="//other.example/">o</a><a href="https://example.com/">e</a>',
      ),
    ).toBe(
      '<a class="x" href="#/section/pagination">p</a><a href="//other.example/">o</a><a href="https://example.com/">e</a>',
    );
  });
});

describe("localRedocBundle", () => {
  it("points Redoc's logo at local files", () => {
    const bundle = localRedocBundle(
      'src:e?"https://cdn.redoc.ly/redoc/logo-mini-full.svg":"https://cdn.redoc.ly/redoc/logo-mini.svg"',
    );
    expect(bundle).toBe('src:e?"assets/redoc-logo-full.svg":"assets/redoc-logo.svg"');
  });

  it("fails when Redoc's bundle changed what it fetches", () => {
    expect(() => localRedocBundle("no logo here")).toThrow(
      "Expected https://cdn.redoc.ly/redoc/logo-mini-full.svg in Redoc's bundle",
    );
  });
});

describe("the Test mode part's pages", () => {
  const testModePage = readFileSync(path.join(distDir, TEST_MODE_PAGE), "utf8");

  it("has the test-mode reference with its own init script and console, and a strict policy", () => {
    expect(testModePage).toContain(
      `<script type="module" src="${TEST_MODE_INIT_SCRIPT}"></script>`,
    );
    expect(testModePage).toContain(
      `<script type="module" src="${TEST_MODE_CONSOLE_SCRIPT}"></script>`,
    );
    const testModePolicy =
      /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(testModePage)?.[1] ?? "";
    expect(testModePolicy).toContain("default-src 'self'");
    expect(/script-src ([^;]+)/.exec(testModePolicy)?.[1]).not.toContain("unsafe-inline");
    expect(externalResources(testModePage)).toEqual([]);
    const initScript = readFileSync(path.join(distDir, TEST_MODE_INIT_SCRIPT), "utf8");
    expect(initScript).not.toMatch(/cdn\.redoc/);
  });

  it("has guide pages that run no script and load nothing from another host", () => {
    const pages = readdirSync(path.join(distDir, "guides")).filter((file) =>
      file.endsWith(".html"),
    );
    expect(pages.length).toBeGreaterThan(GUIDES.length);
    for (const file of pages) {
      const page = readFileSync(path.join(distDir, "guides", file), "utf8");
      expect(page, file).toContain(
        `<meta http-equiv="Content-Security-Policy" content="${GUIDE_PAGE_CSP}">`,
      );
      expect(page, file).not.toMatch(/<script\b/);
      expect(externalResources(page), file).toEqual([]);
    }
  });
});
