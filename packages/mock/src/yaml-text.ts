// YAML or JSON text a user hands a command (a fixture, an OpenAPI document): what the parser says
// when it cannot read it, in words the file's author reads.

/** The parser's message, first line only, where its words are the JavaScript engine's. */
export function yamlProblem(message: string): string {
  if (message.includes("Maximum call stack size exceeded")) {
    return "nests lists or maps too deeply to read";
  }
  return message.split("\n")[0] || "not YAML or JSON";
}
