// The value a problem points at, to say in its message what came instead of what the spec wants.
import { isObject } from "./is-object.js";

/** The value at a dotted path (`items.0.id`; "" for the root), or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  if (path === "") return root;
  let value = root;
  for (const key of path.split(".")) {
    if (Array.isArray(value)) value = value[Number(key)];
    else if (isObject(value)) value = Object.hasOwn(value, key) ? value[key] : undefined;
    else return undefined;
  }
  return value;
}
