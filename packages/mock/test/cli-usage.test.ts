// The usage of each command (its synopsis and its table of options), in the README for the mock
// and in the docs site's proxy guide for the proxy, says what the built CLI's --help says: the
// same flags, each with the same kind of value.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const proxyGuide = readFileSync(new URL("../../docs/guides/proxy.md", import.meta.url), "utf8");

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

/** The table of options that follows `heading` in `text` (`| \`--port <port>\` | …`). */
function tableFlags(text: string, heading: string): string[] {
  const section = text.slice(text.indexOf(heading));
  const table = /\n(\| Option[\s\S]*?)\n\n/.exec(section)?.[1] ?? "";
  const firstCells = table.split("\n").map((row) => row.split("|")[1] ?? "");
  return flagsIn(firstCells.join("\n"), /`(--[\w-]+)(?: <([^>]+)>)?`/g);
}

/** The synopsis after `heading` in `text`: the code block that starts with `command`. */
function synopsisFlags(text: string, heading: string, command: string): string[] {
  const section = text.slice(text.indexOf(heading));
  const block =
    new RegExp(`\`\`\`(?:text)?\\n(${command} [\\s\\S]*?)\\n\`\`\``).exec(section)?.[1] ?? "";
  return flagsIn(block, /\[(--[\w-]+)(?: <([^>]+)>)?/g);
}

describe.concurrent.each([
  { command: "payments-mock", args: ["--help"], text: readme, heading: "## CLI" },
  {
    command: "payments-mock proxy",
    args: ["proxy", "--help"],
    text: proxyGuide,
    heading: "# The validating proxy",
  },
])("$command", ({ command, args, text, heading }) => {
  async function help(context: Parameters<typeof runCli>[0]): Promise<string[]> {
    const run = runCli(context, args);
    expect((await run.exited)[0]).toBe(0);
    return helpFlags(run.output().stdout);
  }

  it("--help lists the options of the documented table", async (context) => {
    const flags = await help(context);
    expect(flags.length).toBeGreaterThan(5);
    expect(tableFlags(text, heading)).toEqual(flags);
  });

  it("--help lists the options of the documented synopsis", async (context) => {
    const flags = (await help(context)).filter((flag) => flag !== "--help");
    expect(synopsisFlags(text, heading, command)).toEqual(flags);
  });
});
