// Prism's router, remembered. Prism sorts and matches every operation of the spec against every
// request; its answer depends only on the method and on which path segments equal one of the
// spec's own, so requests that agree on those share it. Refusals are not remembered: their
// messages name the request's path, so Prism makes each one afresh.
import { decoded } from "../../http/index.js";
import { prismRoute, type Route } from "../prism/index.js";

type Resource = Parameters<Route>[0]["resources"][number];

/** A segment that equals none of the spec's: no path segment of a request can hold a NUL. */
const OTHER = "\0";
/** Enough for every route of a spec many times over; past it, routes are not remembered. */
const MAX_ROUTES = 10_000;

/** A `route` for Prism's pipeline that answers as Prism's own and remembers what it found. */
export function cachedRoute(resources: readonly Resource[]): Route {
  const fragments = new Set(resources.flatMap((resource) => resource.path.split("/")));
  // Prism matches a `{name}` segment with any text; other templates (`{id}.json`) depend on the
  // text, so a spec that has them gets its routes remembered path by path.
  const onlyWholeSegmentTemplates = [...fragments].every(
    (fragment) => !/\{.+\}/.test(fragment) || /^\{[^{}]+\}$/.test(fragment),
  );
  const keyOf = (method: string, path: string) => {
    if (!onlyWholeSegmentTemplates) return `${method} ${path}`;
    let key = method;
    for (const segment of path.split("/")) {
      // Only a segment with an escape can decode to another text.
      const text = segment.includes("%") ? decoded(segment) : segment;
      key +=
        fragments.has(segment) || (text !== undefined && fragments.has(text))
          ? `/${segment}`
          : `/${OTHER}`;
    }
    return key;
  };
  const routes = new Map<string, Resource>();
  // The same path asked again (a list polled, one resource read) is found without its shape.
  const paths = new Map<string, Map<string, Resource>>();
  let pathCount = 0;
  return (options) => {
    if (options.resources !== resources || options.input.url.baseUrl !== undefined) {
      return prismRoute(options);
    }
    const { method } = options.input;
    const { path } = options.input.url;
    let byPath = paths.get(method);
    if (byPath === undefined) {
      byPath = new Map();
      paths.set(method, byPath);
    }
    const seen = byPath.get(path);
    if (seen !== undefined) return { _tag: "Right", right: seen };
    const key = keyOf(method, path);
    const known = routes.get(key);
    const found =
      known !== undefined ? { _tag: "Right" as const, right: known } : prismRoute(options);
    if (found._tag === "Right") {
      if (known === undefined && routes.size < MAX_ROUTES) routes.set(key, found.right);
      if (pathCount < MAX_ROUTES) {
        pathCount++;
        byPath.set(path, found.right);
      }
    }
    return found;
  };
}
