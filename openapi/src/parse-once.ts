// YAML text parsed once per process: the tools and tests read the same documents again and again
// (the released and the working ones, each test-mode document beside the API's), and parsing is
// most of what reading one costs. Each caller gets a copy of its own, free to change.
import { parse } from "yaml";

const parsedTexts = new Map<string, unknown>();

/** `text` parsed as YAML: a copy of the first parse of the same text. */
export function parseYaml(text: string): unknown {
  let parsed = parsedTexts.get(text);
  if (parsed === undefined) {
    parsed = parse(text);
    parsedTexts.set(text, parsed);
  }
  return structuredClone(parsed);
}
