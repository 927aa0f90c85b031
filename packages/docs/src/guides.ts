// The guides of the site: Markdown files in guides/, rendered to pages of their own under
// dist/guides/ with marked (at build time; the pages carry no script). Their code blocks are
// run by test/guides.test.ts as printed, so what a page shows is what CI ran. A guide may hold
// markers the build fills from the sandbox's code:
//   <!-- lifecycle:<collection> -->  the lifecycle's state diagram (SVG, lifecycle-diagrams.ts)
//                                    and its transitions as a table;
//   <!-- transaction-states -->      each transaction status and the state it sets;
//   <!-- readiness-checks -->        the default readiness profile's checks and how each is decided.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Marked, type Tokens } from "marked";
import { CAUSE_COLOURS, diagramFile, duration } from "./lifecycle-diagrams.ts";
import {
  LIFECYCLES,
  type Lifecycle,
  READINESS_PROFILE,
  TRANSACTION_STATES,
} from "./sandbox-data.ts";

export interface Guide {
  /** The file name in guides/ and of the page, without extension. */
  slug: string;
  title: string;
  /** One sentence for the guides' index. */
  summary: string;
  part: "Test mode" | "Mock and proxy" | "Client";
  /**
   * Its commands run a Node program (payments-mock's CLI), not only the shell, curl and jq: its
   * test runs them with the machine's PATH.
   */
  runsNode?: true;
}

export const GUIDES: readonly Guide[] = [
  {
    slug: "quickstart",
    title: "Quickstart with curl",
    summary: "Start a sandbox, create a customer, move the clock and read the events it sent.",
    part: "Test mode",
  },
  {
    slug: "onboarding-curl",
    title: "From onboarding to a settled transaction (curl)",
    summary:
      "Onboard a customer to Active, open an autoramp, simulate a deposit and follow its transaction to Completed, in curl.",
    part: "Test mode",
  },
  {
    slug: "onboarding-typescript",
    title: "From onboarding to a settled transaction (TypeScript)",
    summary:
      "The same flow with @org/payments-client and startMock's typed controls, with a webhook receiver checking every event.",
    part: "Test mode",
  },
  {
    slug: "webhooks",
    title: "Webhooks: delivery, retries, redelivery and chaos",
    summary:
      "What the sandbox sends and when, how a failed delivery is retried, how to redeliver an event, and duplicates and disorder on purpose.",
    part: "Test mode",
    // payments-mock trigger, in "Make an event happen", is a Node program.
    runsNode: true,
  },
  {
    slug: "rehearse-failures",
    title: "Rehearse failures: lost answers, 503s, 429s, timeouts and duplicate events",
    summary:
      "Make your own requests and webhook deliveries fail as production can, per API key, and prove your retries, timeouts and de-duplication, in curl and TypeScript.",
    part: "Test mode",
  },
  {
    slug: "parallel-tests",
    title: "Tests in parallel, one partner each",
    summary:
      "One sandbox for a whole vitest run, and tests that run at once, each a partner of its own with its own data, events and clock.",
    part: "Test mode",
  },
  {
    slug: "mock-front-end",
    title: "Mock the API in your front end and tests",
    summary:
      "MSW handlers backed by a real sandbox, with no server: a fresh partner per test, the clock and faults driven from the test.",
    part: "Test mode",
  },
  {
    slug: "pricing",
    title: "Pricing: quotes, exchange rates and fees",
    summary:
      "The rules, rates and fees the sandbox prices quotes, exchange rates and deposits with, and a worked example.",
    part: "Test mode",
  },
  {
    slug: "readiness",
    title: "Ready to go live",
    summary:
      "The readiness report: what your integration has shown in the sandbox, the checks it must pass before going live, and a CI step that fails a build that is not ready.",
    part: "Test mode",
    // payments-mock readiness, the CLI a CI step runs, is a Node program.
    runsNode: true,
  },
  {
    slug: "lifecycles",
    title: "Lifecycles",
    summary:
      "Every resource's states and transitions as a diagram, what causes each, the topics they send, and the magic values.",
    part: "Test mode",
  },
  {
    slug: "team-sandbox",
    title: "Develop against a team sandbox",
    summary:
      "Events forwarded to your laptop with listen, trigger and fixture files, the request log live, and a CI job that waits for the sandbox to be ready.",
    part: "Test mode",
    runsNode: true,
  },
  {
    slug: "cli",
    title: "The command line: payments-mock",
    summary:
      "Every payments-mock command besides starting a server: readiness, impact, fixtures, trigger, listen and logs tail, with their options, formats and exit codes.",
    part: "Test mode",
  },
  {
    slug: "sandbox",
    title: "The sandbox: behaviour, clock, controls and stores",
    summary:
      "What the sandbox keeps and answers where the API description is silent, the test-mode routes, typed controls and where data is stored.",
    part: "Test mode",
  },
  {
    slug: "mock",
    title: "The stateless mock: Prefer, CORS, limits and errors",
    summary:
      "What the stateless mock validates and answers, how to choose an answer with Prefer, its limits and its error format.",
    part: "Mock and proxy",
  },
  {
    slug: "proxy",
    title: "The validating proxy",
    summary:
      "Put the real service behind the spec: every request and answer checked, violations reported, in CI too.",
    part: "Mock and proxy",
  },
  {
    slug: "client",
    title: "The TypeScript client",
    summary:
      "@org/payments-client beyond its README: the facade and path style, idempotency, retries, timeouts, cancelling, errors, pagination, sub-partners, webhook events and the runtimes it runs on.",
    part: "Client",
  },
];

export const guidesDir = path.resolve(import.meta.dirname, "../guides");

export const guideSource = (slug: string) =>
  readFileSync(path.join(guidesDir, `${slug}.md`), "utf8");

/** A guide's page, relative to the site's root. */
export const guidePage = (slug: string) => `guides/${slug}.html`;

const LIFECYCLE_MARKER = /<!-- lifecycle:([a-z_]+) -->/g;
const TRANSACTION_STATES_MARKER = "<!-- transaction-states -->";
const READINESS_CHECKS_MARKER = "<!-- readiness-checks -->";

/** The default readiness profile's checks, as a Markdown table. */
function readinessChecks(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  return [
    `The default profile is \`${READINESS_PROFILE.name}\` ${READINESS_PROFILE.version}:`,
    "",
    "| Check | What it asks | How it is decided |",
    "| --- | --- | --- |",
    ...READINESS_PROFILE.checks.map(
      (check) => `| \`${check.id}\` | ${cell(check.title)} | ${cell(check.how)} |`,
    ),
  ].join("\n");
}

/** Each transaction `status` of the sandbox and the `state` it sets, as a Markdown table. */
function transactionStates(): string {
  const byState = new Map<string, string[]>();
  for (const [status, state] of Object.entries(TRANSACTION_STATES)) {
    byState.set(state, [...(byState.get(state) ?? []), status]);
  }
  return [
    "| `status` | `state` |",
    "| --- | --- |",
    ...[...byState].map(
      ([state, statuses]) => `| ${statuses.map((s) => `\`${s}\``).join(", ")} | \`${state}\` |`,
    ),
  ].join("\n");
}

/** The guide's Markdown with its markers filled in from the sandbox's code. */
export function expandMarkers(markdown: string, slug: string): string {
  return markdown
    .replace(TRANSACTION_STATES_MARKER, transactionStates)
    .replace(READINESS_CHECKS_MARKER, readinessChecks)
    .replace(LIFECYCLE_MARKER, (_, collection: string) => {
      const lifecycle = LIFECYCLES.find((candidate) => candidate.collection === collection);
      if (!lifecycle) {
        throw new Error(`guides/${slug}.md: no lifecycle "${collection}" in the sandbox's code`);
      }
      return lifecycleSection(lifecycle);
    });
}

/** The diagram of a lifecycle and its transitions as a table (each a row). */
function lifecycleSection(lifecycle: Lifecycle): string {
  const rows = [
    ...lifecycle.initial.map((initial) => ({ from: "(start)", to: initial.state, ...initial })),
    ...lifecycle.transitions,
  ].map((t) => {
    const after = "afterSeconds" in t && t.afterSeconds !== undefined;
    const when = `${after ? `after ${duration(t.afterSeconds as number)}: ` : ""}${t.when}`;
    return `<tr data-transition="${t.from}-${t.to}"><td>${t.from === "(start)" ? "<em>start</em>" : `<code>${t.from}</code>`}</td><td><code>${t.to}</code></td><td><span class="cause cause-${t.cause}">${t.cause}</span></td><td>${escapeHtml(when)}</td></tr>`;
  });
  return [
    `<figure class="lifecycle" data-lifecycle="${lifecycle.collection}">`,
    `<img src="${diagramFile(lifecycle)}" alt="The ${lifecycle.resource} lifecycle: states ${lifecycle.states.join(", ")}; each transition is listed in the table below.">`,
    `<figcaption>The ${lifecycle.resource} lifecycle, drawn from the sandbox's code. Arrow colours: ${Object.keys(
      CAUSE_COLOURS,
    )
      .map((cause) => `<span class="cause cause-${cause}">${cause}</span>`)
      .join(" ")}; dashed: only with that outcome chosen.</figcaption>`,
    "</figure>",
    "",
    `<table class="transitions"><thead><tr><th>From</th><th>To</th><th>Cause</th><th>When</th></tr></thead><tbody>`,
    ...rows,
    "</tbody></table>",
    "",
  ].join("\n");
}

/** A heading's id: its text in lower case, words joined by hyphens. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Renders a guide's Markdown (markers already expanded) to HTML, with ids on its headings. */
export function renderMarkdown(markdown: string): { html: string; headings: Heading[] } {
  const headings: Heading[] = [];
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token) {
        const inner = this.parser.parseInline(token.tokens);
        const id = slugOf(token.text);
        headings.push({ depth: token.depth, id, text: inner });
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}">${inner}</a></h${token.depth}>\n`;
      },
      code(token) {
        const [language = "", ...flags] = (token.lang ?? "").split(/\s+/);
        const label = CODE_LABELS[language] ?? language;
        const kind = flags.includes("server")
          ? " (starts a server: leave it running)"
          : flags.includes("vitest")
            ? " (a file of a vitest project)"
            : flags.includes("module")
              ? " (a module of its own)"
              : "";
        return `<div class="code code-${language}">${label ? `<span class="code-label">${escapeHtml(label)}${kind}</span>` : ""}<pre><code${language ? ` class="language-${language}"` : ""}>${escapeHtml(token.text)}\n</code></pre></div>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { html, headings };
}

export interface Heading {
  depth: number;
  id: string;
  text: string;
}

const CODE_LABELS: Record<string, string> = {
  sh: "Shell",
  ts: "TypeScript",
  output: "Output",
  json: "JSON",
  text: "",
};

export function escapeHtml(text: string) {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
