// The sandbox in the page, for a copy of the site served as static files with no sandbox at the
// console's URL. At the first send to a URL, the page asks whether a sandbox answers there; when
// none does, it registers the site's service worker (sandbox-worker.ts: @org/payments-mock's
// browser build), which from then on answers this page's requests to that URL, and says so in a
// notice on the page. A page that never sends, or whose sandbox answers, loads nothing more.
import { h } from "./dom.ts";
import { pageMayCall } from "./reachable.ts";
import type { FromWorker, ToWorker } from "./sandbox-worker.ts";

/** The worker's file, at the site's root so that its scope holds every page with a console. */
export const SANDBOX_WORKER = "sandbox-worker.js";

/**
 * How long the probe waits for an answer at the console's URL. Nothing listening there is known at
 * once (the connection is refused), so the wait only matters for a sandbox that is slow to answer,
 * on a loaded machine say, which must not be taken for none.
 */
const PROBE_MS = 20_000;
/** A page tells the worker it is still there this often (an idle worker stops after 30 s). */
const HEARTBEAT_MS = 10_000;
/** How long the worker may take to install and make its sandbox. */
const START_MS = 60_000;

type InPageState = "loading" | "in-page" | "unavailable" | "off";

export interface InPageSandbox {
  /**
   * Resolves once requests to `base` have somewhere to go: the sandbox there, or the page's own.
   * Never rejects: where neither is possible, the request fails as it would have, and the notice
   * says why.
   */
  readyFor(base: string): Promise<void>;
  /**
   * A request to `base` got no answer (the sandbox there stopped, say): the next `readyFor` asks
   * the URL again, and with none there the page's own sandbox answers.
   */
  unreachable(base: string): void;
  /** Whether the page's own sandbox answers the requests to `base` (as the notice says). */
  answersInPage(base: string): boolean;
}

export function inPageSandbox(): InPageSandbox {
  let decided: { base: string; done: Promise<void> } | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  /** The base the page's own sandbox answers, once it does. */
  let servedBase: string | undefined;
  let listening = false;
  /** The run of the worker whose sandbox this page has used (see sandbox-worker.ts). */
  let run: string | undefined;
  /** Whether the sandbox started again, empty, since this page first used it. */
  const restarted = (answer: FromWorker) => {
    if (answer.type !== "serving") return false;
    const again = run !== undefined && answer.run !== run;
    run = answer.run;
    return again;
  };
  const notice = new Notice();
  const workers = "serviceWorker" in navigator ? navigator.serviceWorker : undefined;
  const workerUrl = new URL(SANDBOX_WORKER, document.baseURI).href;

  const post = (message: ToWorker) => workers?.controller?.postMessage(message);

  /** Whether `base` is still the URL the page sends to: a verdict on another comes late. */
  const current = (base: string) => decided?.base === base;

  async function decide(base: string): Promise<void> {
    clearInterval(heartbeat);
    servedBase = undefined;
    post({ type: "stop" });
    const found = !URL.canParse(base) || (await answers(base));
    // The reader changed the URL meanwhile (a slow one's probe waits 20 s): this one is moot.
    if (!current(base)) return;
    if (found) {
      notice.show("off", base);
      // Not loaded again on this site's next pages: the sandbox there answers.
      const registration = await workers?.getRegistration();
      if (current(base) && registration?.active?.scriptURL === workerUrl) {
        await registration.unregister();
      }
      return;
    }
    if (workers === undefined) {
      notice.show("unavailable", base, "this browser runs no service worker for this page");
      return;
    }
    if (!pageMayCall(base, location.origin)) {
      // Its requests are refused before they reach a worker: there is nothing to answer.
      notice.show(
        "unavailable",
        base,
        "this page's Content-Security-Policy lets it call only this site and http://127.0.0.1 or localhost",
      );
      return;
    }
    notice.show("loading", base);
    try {
      const again = await serve(workers, base);
      if (again === undefined) return;
      servedBase = base;
      notice.show("in-page", base, "", again);
    } catch (error) {
      notice.show("unavailable", base, error instanceof Error ? error.message : String(error));
    }
  }

  async function serve(container: ServiceWorkerContainer, base: string) {
    await container.register(workerUrl);
    const controller = await controlling(container);
    if (!current(base)) return undefined;
    const reply = nextReply(container);
    controller.postMessage({ type: "serve", base } satisfies ToWorker);
    const answer = await reply;
    if (answer.type === "failed") throw new Error(answer.reason);
    const again = restarted(answer);
    if (!current(base)) return undefined;
    heartbeat = setInterval(() => post({ type: "serve", base }), HEARTBEAT_MS);
    if (!listening) {
      listening = true;
      // A newer worker (the site was rebuilt) takes over: it is told the URL in use too.
      container.addEventListener("controllerchange", () => {
        if (servedBase !== undefined) post({ type: "serve", base: servedBase });
      });
      container.addEventListener("message", (event) => onMessage(event.data as FromWorker));
    }
    return again;
  }

  /** What the worker says after its first answer (`decided` is what the page uses). */
  function onMessage(data: FromWorker) {
    const base = servedBase;
    if (base === undefined || decided?.base !== base || !("base" in data) || data.base !== base) {
      return;
    }
    // A sandbox started at the URL while the page is open: the page decides again, and finds it.
    if (data.type === "found") decided = { base, done: decide(base) };
    // A heartbeat's answer from another run: the browser stopped the worker, and its sandbox.
    else if (restarted(data)) notice.show("in-page", base, "", true);
  }

  const trim = (base: string) => base.trim().replace(/\/+$/, "");
  return {
    readyFor(base) {
      const trimmed = trim(base);
      if (decided?.base !== trimmed) decided = { base: trimmed, done: decide(trimmed) };
      return decided.done;
    },
    unreachable(base) {
      if (decided?.base === trim(base)) decided = undefined;
    },
    answersInPage(base) {
      return servedBase !== undefined && servedBase === trim(base);
    },
  };
}

/** Whether anything answers HTTP at `base` (a refused connection, or no CORS, is no answer). */
async function answers(base: string): Promise<boolean> {
  // A timer rather than AbortSignal.timeout: the page's clock (which a test may move) decides.
  const late = new AbortController();
  const timer = setTimeout(() => late.abort(), PROBE_MS);
  try {
    await fetch(`${base}/_sandbox/health`, {
      cache: "no-store",
      credentials: "omit",
      signal: late.signal,
    });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The worker that controls the page, once it does (at once, or when it claims it). */
function controlling(container: ServiceWorkerContainer): Promise<ServiceWorker> {
  return new Promise((resolve, reject) => {
    if (container.controller !== null) {
      resolve(container.controller);
      return;
    }
    const timer = setTimeout(() => reject(new Error("the service worker did not start")), START_MS);
    container.addEventListener(
      "controllerchange",
      () => {
        clearTimeout(timer);
        if (container.controller !== null) resolve(container.controller);
        else reject(new Error("the service worker stopped"));
      },
      { once: true },
    );
  });
}

/** The worker's next answer to this page. */
function nextReply(container: ServiceWorkerContainer): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("the service worker made no sandbox in time")),
      START_MS,
    );
    container.addEventListener(
      "message",
      (event) => {
        clearTimeout(timer);
        resolve(event.data as FromWorker);
      },
      { once: true },
    );
  });
}

/** The line at the foot of the page saying which sandbox answers the consoles. */
class Notice {
  private element: HTMLElement | undefined;

  show(state: InPageState, base: string, reason = "", restarted = false) {
    const text = {
      loading: `No sandbox answers at ${base}: starting one in this page\u2026`,
      "in-page": restarted
        ? `No sandbox answers at ${base}, so a sandbox running in your browser answers this site's consoles. It started again (the browser stopped it), so what you created in it before is gone.`
        : `No sandbox answers at ${base}, so a sandbox running in your browser answers this site's consoles. What you create in it lasts while a page of the site is open.`,
      unavailable: `No sandbox answers at ${base}, and none could start in this page (${reason}). npm start runs one.`,
      off: "",
    }[state];
    if (this.element === undefined) {
      if (state === "off") return;
      this.element = h("aside", {
        class: "pp-in-page-sandbox",
        role: "status",
        "aria-live": "polite",
      });
      document.body.append(this.element);
    }
    this.element.dataset.inPageSandbox = state;
    this.element.hidden = state === "off";
    this.element.textContent = text;
  }
}
