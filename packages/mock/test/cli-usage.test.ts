// The README's usage of each command (its synopsis and its table of options) says what the built
// CLI's --help says: the same flags, each with the same kind of value.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** Each flag as `--name` or `--name <value>` (the value's first word), sorted. */
function flagsIn(text: string, pattern: RegExp): string[] {
  const flags = [...text.matchAll(pattern)].map(([, flag = "", value]) =>
    value === undefined ? flag : `${flag} <${/^[\w-]+/.exec(value)?.[0]}>`,
  );
  return [...new Set(flags)].sort();
}

/** The flags of --help's option lines (`  --port <port>   …`, `  -h, --help …`). */
function helpFlags(help: string): string[] {
  return flagsIn(help, /^ {2}(?:-\w, )?(--[\w-]+)(?: <([^>]+)>)?/gm);
}

/** The README's table of options that follows `heading` (`| \`--port <port>\` | …`). */
function tableFlags(heading: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  const table = /\n(\| Option[\s\S]*?)\n\n/.exec(section)?.[1] ?? "";
  const firstCells = table.split("\n").map((row) => row.split("|")[1] ?? "");
  return flagsIn(firstCells.join("\n"), /`(--[\w-]+)(?: <([^>]+)>)?`/g);
}

/** The README's synopsis after `heading`: the code block that starts with `command`. */
function synopsisFlags(heading: string, command: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  const block = new RegExp(`\`\`\`\\n(${command} [\\s\\S]*?)\\n\`\`\``).exec(section)?.[1] ?? "";
  return flagsIn(block, /\[(--[\w-]+)(?: <([^>]+)>)?/g);
}

describe.concurrent.each([
  { command: "payments-mock", args: ["--help"], heading: "## CLI" },
  { command: "payments-mock proxy", args: ["proxy", "--help"], heading: "## Proxy" },
])("$command", ({ command, args, heading }) => {
  async function help(context: Parameters<typeof runCli>[0]): Promise<string[]> {
    const run = runCli(context, args);
    expect((await run.exited)[0]).toBe(0);
    return helpFlags(run.output().stdout);
  }

  it("--help lists the options of the README's table", async (context) => {
    const flags = await help(context);
    expect(flags.length).toBeGreaterThan(5);
    expect(tableFlags(heading)).toEqual(flags);
  });

  it("--help lists the options of the README's synopsis", async (context) => {
    const flags = (await help(context)).filter((flag) => flag !== "--help");
    expect(synopsisFlags(heading, command)).toEqual(flags);
  });
});
