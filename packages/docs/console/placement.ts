// Redoc renders the page of a route (`#/customers/createcustomer`: the tag's operations, scrolled
// to the one named) on the client, and may re-render it. This keeps each rendered operation's
// console inside that operation, in the request's right-hand panel below the samples; a console
// whose operation leaves the page goes with it and keeps what was entered for its return.

/** Operation sections of Redoc's page: their ids are `<tag>/<operationid>`. */
const OPERATION_ID = /^[^/]+\/([^/]+)$/;

/** Where a console goes: the right panel of the request, below the samples. */
function placeIn(section: Element): Element {
  return section.querySelector(".panel-request-samples")?.parentElement ?? section;
}

export function placeConsoles(
  root: HTMLElement,
  consoleFor: (lowercaseOperationId: string) => HTMLElement | undefined,
) {
  const place = () => {
    for (const section of root.querySelectorAll("#api-content [id]")) {
      const key = OPERATION_ID.exec(section.id)?.[1];
      const element = key === undefined ? undefined : consoleFor(key);
      if (!element) continue;
      const parent = placeIn(section);
      if (element.parentElement !== parent) parent.append(element);
    }
  };
  // After every change of Redoc's DOM (placing a console is itself one, which then finds it placed).
  new MutationObserver(place).observe(root, { childList: true, subtree: true });
  place();
}
