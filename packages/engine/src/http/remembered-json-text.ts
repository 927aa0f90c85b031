// An answer's JSON text, made once per object: the engine's answers with the spec's examples are
// objects it shares between requests and never changes (Prism's remembered answers, the pages
// made from them), so their text is the same at every request.

const texts = new WeakMap<object, string>();

/** `JSON.stringify(value)`, remembered for objects and arrays. */
export function rememberedJsonText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
