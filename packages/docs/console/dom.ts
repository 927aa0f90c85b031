// A small element builder: the consoles are plain DOM, so that the page needs no framework.

type Child = Node | string | false | null | undefined;
type Attributes = Record<string, string | number | boolean | undefined>;

/** An element with attributes (`true` sets an empty one, `false`/undefined none) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.filter((child): child is Node | string => Boolean(child)));
  return element;
}

/** Replaces an element's children. */
export function fill(element: Element, ...children: Child[]) {
  element.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)));
}
