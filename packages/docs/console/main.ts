// The page's console script: reads how to reach the sandbox from the page's meta tags, makes a
// console for each operation when Redoc first shows it, and keeps it in the operation.
import { lazyInPageSandbox } from "./lazy-in-page-sandbox.ts";
import type { ConsoleConfig, ConsoleOperation } from "./operation.ts";
import { placeConsoles } from "./placement.ts";
import { type PageSettings, SharedSettings } from "./settings.ts";
import { createConsole, type Target } from "./view.ts";

/** Meta tags the build writes (`payments-sandbox-url`) and the docs server fills (`-proxy`). */
function readConfig(page: Document): ConsoleConfig {
  const meta = (name: string) =>
    page.querySelector(`meta[name="${name}"]`)?.getAttribute("content")?.trim() ?? "";
  return { proxy: meta("payments-sandbox-proxy"), sandboxUrl: meta("payments-sandbox-url") };
}

export function startConsoles(operations: ConsoleOperation[], { apiKey }: { apiKey: string }) {
  const root = document.getElementById("redoc");
  if (!root) throw new Error("the page has no #redoc element to put the consoles in");
  const config = readConfig(document);
  const settings = new SharedSettings({
    apiKey,
    subPartnerId: "",
    sandboxUrl: config.sandboxUrl,
  });
  const target: Target = config.proxy
    ? {
        proxied: true,
        sandboxUrl: config.sandboxUrl,
        base: () => new URL(config.proxy, document.baseURI).href,
      }
    : staticTarget(config.sandboxUrl);
  const byKey = new Map(
    operations.map((operation) => [operation.operationId.toLowerCase(), operation]),
  );
  const made = new Map<string, HTMLElement>();
  placeConsoles(root, (key) => {
    const operation = byKey.get(key);
    if (!operation) return undefined;
    let element = made.get(key);
    if (!element) {
      element = createConsole(operation, settings, target);
      made.set(key, element);
    }
    return element;
  });
  document.documentElement.dataset.consoleOperations = String(operations.length);
}

/** A static copy's consoles send to the Sandbox URL, or to the page's own sandbox when none is there. */
function staticTarget(builtUrl: string): Target {
  const inPage = lazyInPageSandbox();
  const base = (values: PageSettings) => values.sandboxUrl.trim() || builtUrl;
  return {
    proxied: false,
    sandboxUrl: builtUrl,
    base,
    ready: (values) => inPage.readyFor(base(values)),
    unreachable: (values) => inPage.unreachable(base(values)),
    answeredInPage: (values) => inPage.answersInPage(base(values)),
  };
}
