// The page side of the in-page sandbox (in-page-sandbox.ts) is a script of its own,
// assets/in-page-sandbox.js, imported at the first send of a static copy: a page that never sends
// loads not a byte of it.
import type { InPageSandbox } from "./in-page-sandbox.ts";

/** The script's file, beside the consoles' (and the readiness page's) own in assets/. */
export const IN_PAGE_SCRIPT = "in-page-sandbox.js";

export function lazyInPageSandbox(): InPageSandbox {
  let loaded: Promise<InPageSandbox | undefined> | undefined;
  let sandbox: InPageSandbox | undefined;
  return {
    async readyFor(base) {
      loaded ??= (
        import(new URL(IN_PAGE_SCRIPT, import.meta.url).href) as Promise<
          typeof import("./in-page-sandbox.ts")
        >
      ).then(
        (script) => {
          sandbox = script.inPageSandbox();
          return sandbox;
        },
        // Not loaded (the site is half-copied): the request fails as it would have.
        () => undefined,
      );
      await (await loaded)?.readyFor(base);
    },
    answersInPage: (base) => sandbox?.answersInPage(base) ?? false,
    unreachable(base) {
      void loaded?.then((made) => made?.unreachable(base));
    },
  };
}
