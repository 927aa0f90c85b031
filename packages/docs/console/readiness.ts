// The readiness page: reads GET /_sandbox/readiness for the console's key (the same X-API-Key the
// consoles send, kept for the tab) and shows the checklist and a grid of the API's operations by
// the statuses they answered. Plain DOM, like the consoles.
import { fill, h } from "./dom.ts";
import { lazyInPageSandbox } from "./lazy-in-page-sandbox.ts";
import { headerProblems } from "./request.ts";
import { SharedSettings } from "./settings.ts";

interface Check {
  id: string;
  title: string;
  status: "passed" | "failed" | "not_run";
  detail: string;
  how?: string;
}

interface Report {
  partner_id: string;
  ready: boolean;
  profile: { name: string; version: string };
  checks: Check[];
  coverage: {
    operations: Record<string, { calls: number; statuses: Record<string, number> }>;
    topics: Record<
      string,
      { subscribed: boolean; delivered: number; acknowledged: number; failing?: number }
    >;
    states: Record<string, string[]>;
  };
}

const MARKS = { passed: "✓", failed: "✗", not_run: "○" } as const;
const WORDS = { passed: "passed", failed: "failed", not_run: "not run" } as const;

function meta(name: string): string {
  return document.querySelector(`meta[name="${name}"]`)?.getAttribute("content")?.trim() ?? "";
}

export function startReadinessPage({ apiKey }: { apiKey: string }) {
  const root = document.getElementById("readiness");
  if (!root) throw new Error("the page has no #readiness element");
  const proxy = meta("payments-sandbox-proxy");
  const builtUrl = meta("payments-sandbox-url");
  const settings = new SharedSettings({ apiKey, subPartnerId: "", sandboxUrl: builtUrl });
  const base = () =>
    proxy ? new URL(proxy, document.baseURI).href : settings.current.sandboxUrl.trim() || builtUrl;
  // A static copy with no sandbox at its URL reads the report of the page's own (the consoles').
  const inPage = proxy ? undefined : lazyInPageSandbox();

  const key = h("input", {
    type: "text",
    id: "readiness-api-key",
    "data-console-setting": "apiKey",
    autocomplete: "off",
    spellcheck: "false",
  });
  key.value = settings.current.apiKey;
  key.addEventListener("input", () => settings.set("apiKey", key.value));
  const url = h("input", {
    type: "url",
    id: "readiness-sandbox-url",
    "data-console-setting": "sandboxUrl",
  });
  url.value = settings.current.sandboxUrl;
  url.addEventListener("input", () => settings.set("sandboxUrl", url.value));
  const read = h("button", { type: "submit", "data-readiness-read": true }, "Read the report");
  const result = h("div", { "data-readiness": "idle", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "pp-readiness-form" },
    h("label", { for: "readiness-api-key" }, "X-API-Key"),
    key,
    !proxy && h("label", { for: "readiness-sandbox-url" }, "Sandbox URL"),
    !proxy && url,
    read,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void load();
  });
  fill(root, form, result);

  async function load() {
    result.dataset.readiness = "loading";
    fill(result, h("p", {}, "Reading…"));
    try {
      // A key fetch cannot send: named, without its value (fetch would throw a TypeError).
      const [unsendable] = headerProblems({ "X-API-Key": settings.current.apiKey });
      if (unsendable) {
        throw new Error(`${unsendable.field} — ${unsendable.rule}: ${unsendable.message}`);
      }
      await inPage?.readyFor(base());
      const target = new URL("_sandbox/readiness", base().replace(/\/*$/, "/"));
      const response = await fetch(target, {
        headers: { "X-API-Key": settings.current.apiKey, Accept: "application/json" },
      }).catch((error: unknown) => {
        // No answer there (a sandbox that stopped): the next read looks at the URL again.
        inPage?.unreachable(base());
        throw error;
      });
      const body: unknown = await response.json().catch(() => undefined);
      if (!response.ok) {
        const detail = (body as { detail?: string } | undefined)?.detail ?? "";
        throw new Error(`the sandbox answered ${response.status}${detail ? `: ${detail}` : ""}`);
      }
      show(body as Report);
    } catch (error) {
      result.dataset.readiness = "failed";
      fill(result, h("p", { class: "pp-readiness-error" }, (error as Error).message));
    }
  }

  function show(report: Report) {
    result.dataset.readiness = "done";
    result.dataset.ready = String(report.ready);
    fill(
      result,
      h(
        "p",
        {
          class: "pp-readiness-verdict",
          "data-readiness-verdict": report.ready ? "ready" : "not-ready",
        },
        `${report.ready ? "Ready to go live" : "Not ready to go live"} — profile ${report.profile.name} ${report.profile.version}`,
      ),
      h("h2", {}, "Checklist"),
      checklist(report.checks),
      h("h2", {}, "Operations × statuses"),
      grid(report.coverage.operations),
    );
  }
}

function checklist(checks: Check[]) {
  return h(
    "ul",
    { class: "pp-readiness-checks", "data-readiness-checks": true },
    ...checks.map((check) =>
      h(
        "li",
        { "data-check-id": check.id, "data-check-status": check.status },
        h("span", { class: "pp-readiness-mark", "aria-hidden": "true" }, MARKS[check.status]),
        " ",
        h("strong", {}, check.title),
        ` — ${WORDS[check.status]}`,
        check.status !== "passed" && h("div", { class: "pp-readiness-detail" }, check.detail),
        check.how && h("div", { class: "pp-readiness-how" }, `Decided by: ${check.how}`),
      ),
    ),
  );
}

/** One row per operation, one column per status answered by any of them; cells count calls. */
function grid(operations: Report["coverage"]["operations"]) {
  const statuses = [
    ...new Set(Object.values(operations).flatMap((operation) => Object.keys(operation.statuses))),
  ].sort();
  return h(
    "table",
    { class: "pp-readiness-grid", "data-readiness-grid": true },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Operation"),
        h("th", { scope: "col" }, "Calls"),
        ...statuses.map((status) => h("th", { scope: "col", "data-status": status }, status)),
      ),
    ),
    h(
      "tbody",
      {},
      ...Object.entries(operations).map(([id, operation]) =>
        h(
          "tr",
          { "data-operation": id, "data-calls": operation.calls },
          h("th", { scope: "row" }, h("code", {}, id)),
          h("td", {}, String(operation.calls)),
          ...statuses.map((status) => {
            const n = operation.statuses[status] ?? 0;
            return h(
              "td",
              { "data-status": status, class: n === 0 ? "pp-none" : "pp-some" },
              n === 0 ? "" : String(n),
            );
          }),
        ),
      ),
    ),
  );
}
