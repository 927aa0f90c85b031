// The API changelog on the site: changelog.html, an upgrade page per breaking release and atom.xml,
// made from the record `npm run version-packages` keeps. A record with a breaking release (a
// field made required, an operation deprecated with a sunset date) is written over a copy of the
// built site; the pages name the operation, the field, why it breaks and what to do, and the
// client methods and MCP tools, breaking first; in Chromium they load nothing from another host
// and run no script. The built site has the real record's releases.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ApiChange, ApiChangelog } from "@org/payments-surface-guard/changelog";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { distDir } from "../src/built-paths.ts";
import { CHANGELOG_FEED, CHANGELOG_PAGE, writeChangelogPages } from "../src/changelog-pages.ts";
import { startStaticServer } from "../src/static-server.ts";
import { type ChromiumRun, launchRecordedPage } from "./support/browser-page.ts";

const repository = path.resolve(import.meta.dirname, "../../..");
const ALL_FOUR = ["types", "client", "mock", "mcp"].map((name) => `@org/payments-${name}`);

const nameRequired: ApiChange = {
  document: "partner-payments",
  kind: "changed",
  breaking: true,
  level: "major",
  rule: "request-property-became-required",
  where: "createCustomer (POST /customers) request application/json body.name",
  operation: { id: "createCustomer", method: "POST", path: "/customers" },
  location: "request application/json body.name",
  field: "name",
  summary: "property became required",
  why: "Integrations that call the HTTP API as before stop working as they did",
  action: "Send `name` in every request body",
  clientMethods: ["payments.customers.create"],
  mcpTools: ["createCustomer"],
  packages: ALL_FOUR,
};
const listDeprecated: ApiChange = {
  document: "partner-payments",
  kind: "deprecated",
  breaking: false,
  level: "minor",
  rule: "operation-deprecated",
  where: "listCustomers (GET /customers)",
  operation: { id: "listCustomers", method: "GET", path: "/customers" },
  location: "",
  summary: "operation deprecated, sunset 2027-06-30",
  sunset: "2027-06-30",
  action: "Move off it before 2027-06-30: a later major release removes it",
  clientMethods: ["payments.customers.list"],
  mcpTools: ["listCustomers"],
  packages: ALL_FOUR,
};
const record: ApiChangelog = {
  releases: [
    {
      document: "partner-payments",
      version: "1.0.0",
      previous: "0.1.0",
      date: "2026-12-01",
      level: "major",
      changes: [nameRequired, listDeprecated],
    },
    {
      document: "partner-payments",
      version: "0.1.0",
      date: "2026-11-22",
      level: "patch",
      changes: [],
    },
  ],
};

const folder = mkdtempSync(path.join(os.tmpdir(), "payments-changelog-pages-"));
const site = path.join(folder, "site");
const root = path.join(folder, "repository");
let written: string[] = [];
let server: Awaited<ReturnType<typeof startStaticServer>>;
let chromiumRun: ChromiumRun;
let page: Page;
const requests: string[] = [];
const errors: string[] = [];
const read = (file: string) => readFileSync(path.join(site, file), "utf8");

beforeAll(async () => {
  cpSync(distDir, site, { recursive: true });
  // The documents as released at 1.0.0, and in the working copy listCustomers deprecated since.
  mkdirSync(path.join(root, "openapi/released"), { recursive: true });
  writeFileSync(path.join(root, "openapi/released/changelog.json"), JSON.stringify(record));
  for (const name of ["partner-payments", "test-mode"]) {
    const released = readFileSync(path.join(repository, `openapi/released/${name}.yaml`), "utf8");
    const document = parseDocument(released);
    document.setIn(["info", "version"], "1.0.0");
    writeFileSync(path.join(root, `openapi/released/${name}.yaml`), document.toString());
    if (name === "partner-payments")
      document.setIn(["paths", "/customers", "get", "deprecated"], true);
    writeFileSync(path.join(root, `openapi/${name}.yaml`), document.toString());
  }
  written = await writeChangelogPages(site, root);
  server = await startStaticServer({ root: site });
  ({ chromiumRun, page } = await launchRecordedPage(requests, errors));
}, 60_000);

afterAll(async () => {
  await chromiumRun?.close();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the changelog pages", () => {
  it("are the changelog, one upgrade page per breaking release, and the feed", () => {
    expect(written).toEqual([
      CHANGELOG_PAGE,
      CHANGELOG_FEED,
      "upgrade/partner-payments-1.0.0.html",
    ]);
  });

  it("tell each change, breaking first, with the operation, the field, why and what to do", () => {
    const html = read(CHANGELOG_PAGE);
    const release = html.slice(html.indexOf('<section id="partner-payments-1.0.0">'));
    expect(release).toContain("Partner payments API 1.0.0 (2026-12-01)");
    expect(release).toContain("<strong>createCustomer</strong> <code>POST /customers</code>");
    expect(release).toContain(
      "<code>request application/json body.name</code>: property became required",
    );
    expect(release).toContain("Why it breaks: Integrations that call the HTTP API");
    expect(release).toContain("What to do: Send <code>name</code> in every request body.");
    expect(release).toContain(
      "client <code>payments.customers.create</code>; MCP tool <code>createCustomer</code>",
    );
    expect(release).toContain("Sunset: 2027-06-30.");
    expect(release.indexOf("Breaking changes")).toBeLessThan(release.indexOf("Deprecated"));
    expect(release).toContain('href="upgrade/partner-payments-1.0.0.html"');
    const upgrade = read("upgrade/partner-payments-1.0.0.html");
    expect(upgrade).toContain("Upgrading to Partner payments API 1.0.0");
    expect(upgrade).toContain("Client methods: <code>payments.customers.create</code>");
    expect(upgrade).toContain("What to do: Send <code>name</code> in every request body.");
  });

  it("show on top what the working documents change since their release, as upcoming", () => {
    const html = read(CHANGELOG_PAGE);
    expect(html.indexOf('<h2 id="upcoming">')).toBeLessThan(html.indexOf('<h2 id="released">'));
    const upcoming = html.slice(html.indexOf('<section id="upcoming-partner-payments-1.1.0">'));
    expect(upcoming).toContain("Partner payments API 1.1.0 (not released yet)");
    expect(upcoming).toContain(
      "<strong>listCustomers</strong> <code>GET /customers</code>: operation deprecated",
    );
    // Only the API's document changed: the test mode has nothing upcoming.
    expect(html).not.toContain('id="upcoming-test-mode');
  });

  it("ship nothing from another host and no script", () => {
    for (const file of [CHANGELOG_PAGE, "upgrade/partner-payments-1.0.0.html"]) {
      const html = read(file);
      expect(html, file).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html, file).not.toContain("<script");
      expect(html, file).toContain("script-src 'none'");
    }
  });

  it("give feed readers an Atom entry per release, newest first, linking its place", () => {
    const feed = read(CHANGELOG_FEED);
    expect(feed).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
    );
    expect(feed).toContain("<updated>2026-12-01T00:00:00Z</updated>");
    const entries = [...feed.matchAll(/<entry>[\s\S]*?<\/entry>/g)].map((match) => match[0]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain(
      "<title>Partner payments API 1.0.0 (2026-12-01): breaking</title>",
    );
    expect(entries[0]).toContain('href="changelog.html#partner-payments-1.0.0"');
    expect(entries[0]).toContain('<category term="breaking"/>');
    // The release's HTML is escaped inside the entry: no raw markup in the XML.
    const content = /<content type="html">([\s\S]*)<\/content>/.exec(entries[0] ?? "")?.[1] ?? "";
    expect(content).toContain("&lt;strong&gt;createCustomer&lt;/strong&gt;");
    expect(content).not.toMatch(/<(?!\/content)/);
  });

  it("load in Chromium from their own host only, with no error, the upgrade page one click away", async () => {
    const origin = new URL(server.url).origin;
    await page.goto(new URL(CHANGELOG_PAGE, server.url).href);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("API changelog");
    await page.getByRole("link", { name: "How to upgrade" }).click();
    await page.waitForURL(/upgrade\/partner-payments-1\.0\.0\.html$/);
    await expect.poll(() => page.getByRole("heading", { name: "What to change" }).count()).toBe(1);
    const response = await page.goto(new URL(CHANGELOG_FEED, server.url).href);
    expect(response?.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe("the built site's changelog", () => {
  it("has every release of the record, and the references link it", () => {
    const record = JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, "../../../openapi/released/changelog.json"),
        "utf8",
      ),
    ) as ApiChangelog;
    const html = readFileSync(path.join(distDir, CHANGELOG_PAGE), "utf8");
    for (const release of record.releases) {
      expect(html).toContain(`<section id="${release.document}-${release.version}">`);
    }
    expect(readFileSync(path.join(distDir, "index.html"), "utf8")).toContain("changelog.html");
    expect(readFileSync(path.join(distDir, "guides/index.html"), "utf8")).toContain(
      '<a href="../changelog.html">Changelog</a>',
    );
  });
});
