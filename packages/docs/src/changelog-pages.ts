// The API changelog on the site: changelog.html (every released version of the API's and the test
// mode's documents, newest first, breaking changes first in each, with why and what to do), an
// upgrade page per breaking release (upgrade/<document>-<version>.html), and atom.xml for feed
// readers. All from the record `npm run version-packages` keeps (openapi/released/changelog.json,
// read through @org/payments-surface-guard/changelog). Plain HTML with the guides' stylesheet: no
// script, nothing from another host.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type ApiRelease,
  isBreaking,
  pendingReleases,
  readChangelog,
  releaseId,
  releaseMarkdown,
  releaseTitle,
  upgradeMarkdown,
} from "@org/payments-surface-guard/changelog";
import { GUIDE_PAGE_CSP } from "./guide-pages.ts";
import { escapeHtml, renderMarkdown } from "./guides.ts";

export const CHANGELOG_PAGE = "changelog.html";
export const CHANGELOG_FEED = "atom.xml";
const UPGRADE_DIR = "upgrade";
const FEED_ID = "urn:org-payments:partner-payments-api:changelog";

const repositoryRoot = path.resolve(import.meta.dirname, "../../..");

/** The upgrade page of a breaking release, relative to the site's root. */
const upgradePage = (release: ApiRelease): string => `${UPGRADE_DIR}/${releaseId(release)}.html`;

/**
 * Writes the changelog page (on top, what the working documents change since their release, on the
 * wire: upcoming, not released yet), the upgrade pages and the feed; returns the files written.
 */
export async function writeChangelogPages(
  siteDir: string,
  root = repositoryRoot,
): Promise<string[]> {
  const { releases } = readChangelog(root);
  const upcoming = await pendingReleases(root, null);
  const written = [CHANGELOG_PAGE, CHANGELOG_FEED];
  writeFileSync(path.join(siteDir, CHANGELOG_PAGE), changelogPage(releases, upcoming));
  writeFileSync(path.join(siteDir, CHANGELOG_FEED), feed(releases));
  mkdirSync(path.join(siteDir, UPGRADE_DIR), { recursive: true });
  for (const release of releases.filter(isBreaking)) {
    const body = renderMarkdown(upgradeMarkdown(release)).html;
    writeFileSync(
      path.join(siteDir, upgradePage(release)),
      page({
        title: `Upgrading to ${releaseTitle(release)}`,
        depth: 1,
        body: `${body}\n<p><a href="../${CHANGELOG_PAGE}#${releaseId(release)}">The release in the changelog</a></p>`,
      }),
    );
    written.push(upgradePage(release));
  }
  return written;
}

/** A release's HTML, its upgrade guide linked when it breaks something (from the site's root). */
function releaseHtml(release: ApiRelease, depth: number): string {
  const upgrade = isBreaking(release) && release.date !== null ? upgradePage(release) : undefined;
  return renderMarkdown(releaseMarkdown(release, depth, upgrade)).html;
}

function changelogPage(releases: ApiRelease[], upcoming: ApiRelease[]): string {
  const contents = [...upcoming, ...releases]
    .map(
      (release) =>
        `<li><a href="#${release.date === null ? "upcoming-" : ""}${releaseId(release)}">${escapeHtml(releaseTitle(release))}</a>${isBreaking(release) ? ' <strong class="breaking">breaking</strong>' : ""}</li>`,
    )
    .join("");
  const body = [
    `<h1 id="changelog">API changelog</h1>`,
    `<p>Every change a consumer of the partner payments API or of its test mode can feel, release by release, newest first. In each release, breaking changes come first, with why they break and what to do; each change names the operation and the field, and the client methods (<code>@org/payments-client</code>) and MCP tools (<code>@org/payments-mcp</code>) it touches. A breaking release has an upgrade page. Follow it in a feed reader: <a href="${CHANGELOG_FEED}">Atom feed</a>.</p>`,
    `<nav class="toc" aria-label="Releases"><p>Releases</p><ol>${contents}</ol></nav>`,
    ...(upcoming.length > 0
      ? [
          `<h2 id="upcoming">Upcoming: not released yet</h2>`,
          "<p>What the documents in this repository change since their last release, on the wire, as the version it would become. It may still change before the release.</p>",
          ...upcoming.map(
            (release) =>
              `<section id="upcoming-${releaseId(release)}">\n${releaseHtml(release, 3)}</section>`,
          ),
          `<h2 id="released">Released</h2>`,
        ]
      : []),
    ...releases.map(
      (release) =>
        `<section id="${releaseId(release)}">\n${releaseHtml(release, upcoming.length > 0 ? 3 : 2)}</section>`,
    ),
  ].join("\n");
  return page({ title: "API changelog", depth: 0, body });
}

function page({ title, depth, body }: { title: string; depth: number; body: string }): string {
  const up = "../".repeat(depth);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${GUIDE_PAGE_CSP}">
  <meta name="referrer" content="no-referrer">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Partner Payments API</title>
  <link rel="icon" type="image/svg+xml" href="${up}assets/favicon.svg">
  <link rel="stylesheet" href="${up}assets/guides.css">
  <link rel="alternate" type="application/atom+xml" title="API changelog" href="${up}${CHANGELOG_FEED}">
</head>
<body>
  <header class="site-header">
    <a class="site-home" href="${up}index.html"><img src="${up}assets/logo.svg" alt="Partner Payments API" width="167" height="32"></a>
    <nav aria-label="Site">
      <ul>
        <li><a href="${up}index.html">API reference</a></li>
        <li><a href="${up}guides/index.html">Test mode</a></li>
        <li><a href="${up}${CHANGELOG_PAGE}"${depth === 0 ? ' aria-current="page"' : ""}>Changelog</a></li>
      </ul>
    </nav>
  </header>
  <main id="content" class="changelog">
${body}
  </main>
</body>
</html>
`;
}

const xml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/** The Atom feed (RFC 4287): one entry per released version, linking its place on the page. */
function feed(releases: ApiRelease[]): string {
  const dated = releases.filter((release) => release.date !== null);
  const updated = `${dated[0]?.date ?? "1970-01-01"}T00:00:00Z`;
  const entries = dated.map((release) => {
    const title = `${releaseTitle(release)}${isBreaking(release) ? ": breaking" : ""}`;
    return `  <entry>
    <id>${FEED_ID}:${releaseId(release)}</id>
    <title>${xml(title)}</title>
    <updated>${release.date}T00:00:00Z</updated>
    <link rel="alternate" type="text/html" href="${CHANGELOG_PAGE}#${releaseId(release)}"/>
    <category term="${release.document}"/>${isBreaking(release) ? '\n    <category term="breaking"/>' : ""}
    <content type="html">${xml(releaseHtml(release, 2))}</content>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${FEED_ID}</id>
  <title>Partner payments API changelog</title>
  <subtitle>Every change of the API and of its test mode, release by release, breaking changes first.</subtitle>
  <updated>${updated}</updated>
  <author><name>The partner payments API tooling team</name></author>
  <link rel="self" type="application/atom+xml" href="${CHANGELOG_FEED}"/>
  <link rel="alternate" type="text/html" href="${CHANGELOG_PAGE}"/>
${entries.join("\n")}
</feed>
`;
}
