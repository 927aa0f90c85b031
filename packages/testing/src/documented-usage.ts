// A command's usage as documented (a Markdown table of options and a synopsis) and as its --help
// prints it, each read as the sorted list of its flags, for the tests that hold the two together.

/** Each flag as `--name` or `--name <value>` (the value's first word), sorted. */
function flagsIn(text: string, pattern: RegExp): string[] {
  const flags = [...text.matchAll(pattern)].map(([, flag = "", value]) =>
    value === undefined ? flag : `${flag} <${/^[\w-]+/.exec(value)?.[0]}>`,
  );
  return [...new Set(flags)].sort();
}

/** The flags of --help's option lines (`  --port <port>   …`, `  -h, --help …`). */
export function helpFlags(help: string): string[] {
  return flagsIn(help, /^ {2}(?:-\w, )?(--[\w-]+)(?: <([^>]+)>)?/gm);
}

/** The table of options that follows `heading` in `text` (`| \`--port <port>\` | …`). */
export function tableFlags(text: string, heading: string): string[] {
  const section = text.slice(text.indexOf(heading));
  const table = /\n(\| Option[\s\S]*?)\n\n/.exec(section)?.[1] ?? "";
  const firstCells = table.split("\n").map((row) => row.split("|")[1] ?? "");
  return flagsIn(firstCells.join("\n"), /`(--[\w-]+)(?: <([^>]+)>)?`/g);
}

/** The synopsis after `heading` in `text`: the code block that starts with `command`. */
export function synopsisFlags(text: string, heading: string, command: string): string[] {
  const section = text.slice(text.indexOf(heading));
  const block =
    new RegExp(`\`\`\`(?:text)?\\n(${command} [\\s\\S]*?)\\n\`\`\``).exec(section)?.[1] ?? "";
  return flagsIn(block, /\[(--[\w-]+)(?: <([^>]+)>)?/g);
}
