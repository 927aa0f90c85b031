// Writes the guides' pages into the site: dist/guides/index.html (the Test mode part's home),
// one page per guide, the lifecycle diagrams beside them, and their stylesheet. Plain HTML and
// CSS: no script, nothing from another host, a strict Content-Security-Policy.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  escapeHtml,
  expandMarkers,
  GUIDES,
  type Guide,
  guideSource,
  type Heading,
  renderMarkdown,
} from "./guides.ts";
import { lifecycleSvgs } from "./lifecycle-diagrams.ts";
import { LIFECYCLES } from "./sandbox-data.ts";

const GUIDES_STYLES = "assets/guides.css";

/** The guide pages' policy: their own files only, and no script at all. */
export const GUIDE_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** Site-wide links, relative to a page in guides/. */
interface SiteLinks {
  /** The test-mode reference's page, when the build has one. */
  testModeReference?: string;
  /** The API changelog's page, when the build has one. */
  changelog?: string;
}

export async function writeGuidePages(siteDir: string, links: SiteLinks = {}) {
  const dir = path.join(siteDir, "guides");
  mkdirSync(dir, { recursive: true });
  copyFileSync(
    path.resolve(import.meta.dirname, "../template/guides.css"),
    path.join(siteDir, GUIDES_STYLES),
  );
  for (const [file, svg] of await lifecycleSvgs(LIFECYCLES)) {
    writeFileSync(path.join(dir, file), svg);
  }
  for (const guide of GUIDES) {
    const { html, headings } = renderMarkdown(expandMarkers(guideSource(guide.slug), guide.slug));
    writeFileSync(
      path.join(dir, `${guide.slug}.html`),
      page({ title: guide.title, current: guide.slug, links, body: guideBody(html, headings) }),
    );
  }
  writeFileSync(
    path.join(dir, "index.html"),
    page({ title: "Test mode", current: "index", links, body: indexBody(links) }),
  );
  return GUIDES.length;
}

function guideBody(html: string, headings: Heading[]) {
  const contents = headings.filter((heading) => heading.depth === 2);
  return [
    contents.length > 2
      ? `<nav class="toc" aria-label="On this page"><p>On this page</p><ol>${contents
          .map((heading) => `<li><a href="#${heading.id}">${heading.text}</a></li>`)
          .join("")}</ol></nav>`
      : "",
    html,
  ].join("\n");
}

function indexBody(links: SiteLinks) {
  const list = (part: Guide["part"]) =>
    `<ul class="guide-list">${GUIDES.filter((guide) => guide.part === part)
      .map(
        (guide) =>
          `<li><a href="${guide.slug}.html">${escapeHtml(guide.title)}</a><p>${escapeHtml(guide.summary)}</p></li>`,
      )
      .join("")}</ul>`;
  return [
    `<h1 id="test-mode">Test mode</h1>`,
    "<p>The sandbox is the API's offline test mode: a stateful mock of the partner payments API (<code>npx @org/payments-mock --stateful</code>, or <code>npm start</code> in this repository) that plays the provider's part in every flow. Customers are onboarded as their documents are signed and their identifications reviewed, autoramps are approved, deposits settle as transactions, and every step sends its webhook event. Time is the sandbox's own: a test moves its clock instead of waiting.</p>",
    "<p>None of this is the real API's documented behaviour: the API description leaves lifecycles, event causes, retries and pricing open, and these pages say what the sandbox does. Every command and program on them is run by CI against a sandbox, as printed.</p>",
    links.testModeReference
      ? `<p class="callout"><a href="${links.testModeReference}">The test-mode reference</a>: every <code>/_sandbox/</code> route with its parameters, bodies and answers, and a console that sends it to the sandbox and shows the webhook events it caused.</p>`
      : "",
    `<h2 id="guides">Guides</h2>`,
    list("Test mode"),
    `<h2 id="mock-and-proxy">The mock and the proxy</h2>`,
    list("Mock and proxy"),
    `<h2 id="the-client">The client</h2>`,
    list("Client"),
  ].join("\n");
}

/** The guides' parts, in the navigation's order, each with its heading there. */
const NAV_PARTS: Record<Guide["part"], string> = {
  "Test mode": "Guides",
  "Mock and proxy": "Mock and proxy",
  Client: "The client",
};

function page({
  title,
  current,
  links,
  body,
}: {
  title: string;
  current: string;
  links: SiteLinks;
  body: string;
}) {
  const navItem = (href: string, label: string, isCurrent: boolean) =>
    `<li><a href="${href}"${isCurrent ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`;
  const parts = (Object.keys(NAV_PARTS) as Guide["part"][]).map(
    (part) =>
      `<p class="nav-part">${NAV_PARTS[part]}</p><ul>${GUIDES.filter((guide) => guide.part === part)
        .map((guide) => navItem(`${guide.slug}.html`, guide.title, guide.slug === current))
        .join("")}</ul>`,
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${GUIDE_PAGE_CSP}">
  <meta name="referrer" content="no-referrer">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Partner Payments API</title>
  <link rel="icon" type="image/svg+xml" href="../assets/favicon.svg">
  <link rel="stylesheet" href="../${GUIDES_STYLES}">
</head>
<body>
  <header class="site-header">
    <a class="site-home" href="../index.html"><img src="../assets/logo.svg" alt="Partner Payments API" width="167" height="32"></a>
    <nav aria-label="Site">
      <ul>
        <li><a href="../index.html">API reference</a></li>
        <li><a href="index.html"${current === "index" ? ' aria-current="page"' : ""}>Test mode</a></li>
        ${links.testModeReference ? `<li><a href="${links.testModeReference}">Test-mode reference</a></li>` : ""}
        ${links.changelog ? `<li><a href="${links.changelog}">Changelog</a></li>` : ""}
      </ul>
    </nav>
  </header>
  <div class="layout">
    <nav class="guide-nav" aria-label="Test mode">
      <ul>${navItem("index.html", "Test mode: overview", current === "index")}${
        links.testModeReference
          ? navItem(links.testModeReference, "Test-mode reference (routes and consoles)", false)
          : ""
      }</ul>
      ${parts.join("\n      ")}
    </nav>
    <main id="content" data-guide="${current}">
${body}
    </main>
  </div>
</body>
</html>
`;
}
