// A JSON value already serialised: a stored resource's body as the store holds it (what
// JSON.stringify made of it), which a create or a page is made of rather than parsed and
// serialised again. Serialised anywhere else, it is the same JSON.
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The value as JSON text: a JsonText's own text, anything else through JSON.stringify. */
export function jsonText(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
