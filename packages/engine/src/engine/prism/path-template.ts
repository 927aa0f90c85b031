// The values of a path's parameters, read with the operation's path template as Prism reads them
// (its `getPathParams`), each template compiled once.
/// <reference path="./uri-template-lite.d.ts" />
// A CommonJS module that sets `exports.URI` in a way Node cannot list as a named export.
import uriTemplate from "uri-template-lite";

type Template = InstanceType<typeof uriTemplate.URI.Template>;

const templates = new Map<string, Template>();

/** `path`'s parameters by name, decoded; `template` is the path of the operation it was routed to. */
export function pathParameters(path: string, template: string): Record<string, string> {
  // A template without a parameter matches nothing to name.
  if (!template.includes("{")) return {};
  let compiled = templates.get(template);
  if (compiled === undefined) {
    compiled = new uriTemplate.URI.Template(template);
    templates.set(template, compiled);
  }
  return (compiled.match(path) ?? {}) as Record<string, string>;
}
