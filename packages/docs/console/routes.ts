// Redoc shows one operation per route (`#/customers/createcustomer`) and renders its page on the
// client. This keeps the console of the operation on screen inside that page, beside its
// samples, and takes it out when the reader moves on (each console keeps what was entered).

/**
 * The operation page Redoc shows: its route is the hash (`#/customers/createcustomer`, or a
 * deeper link into the page), and the page's element has the route's first two segments as id.
 */
function shownOperation(page: Document): Element | null {
  let route: string;
  try {
    route = decodeURIComponent(page.location.hash.replace(/^#\/?/, ""));
  } catch {
    return null; // a malformed %-escape: no route of Redoc's
  }
  const [tag, operation] = route.split("/");
  return tag && operation ? page.getElementById(`${tag}/${operation}`) : null;
}

/** Where the console goes: the right panel of the request, below the samples. */
function placeIn(page: Element): Element {
  return page.querySelector(".panel-request-samples")?.parentElement ?? page;
}

export function followRedocRoutes(
  root: HTMLElement,
  consoleFor: (lowercaseOperationId: string) => HTMLElement | undefined,
) {
  let shown: HTMLElement | undefined;
  const place = () => {
    const page = shownOperation(document);
    const element = page ? consoleFor(page.id.slice(page.id.indexOf("/") + 1)) : undefined;
    if (shown && shown !== element) shown.remove();
    shown = element;
    if (!page || !element) return;
    const parent = placeIn(page);
    if (element.parentElement !== parent) parent.append(element);
  };
  // Redoc renders a route's page after the hash changes, and may re-render it: check after
  // every change of its DOM (placing the console is itself a change, which then finds it placed).
  new MutationObserver(place).observe(root, { childList: true, subtree: true });
  addEventListener("hashchange", place);
  place();
}
