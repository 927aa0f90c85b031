// How deep a JSON text nests, read from its characters: a body is refused for its depth before it
// is parsed, so that nothing that walks values recursively (validators, a check for the API key,
// the sandbox's fingerprints) ever sees a value deeper than the mock takes.

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `limit` arrays or objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Each level costs an opening character: a text this short cannot pass the limit.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth++;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
