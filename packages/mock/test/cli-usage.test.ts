// The usage of the mock's command (its synopsis and its table of options) in the README says what
// the built CLI's --help says: the same flags, each with the same kind of value. The guides' usage
// of the other commands is held to their --help by the docs package's tests.
import { readFileSync } from "node:fs";
import { helpFlags, synopsisFlags, tableFlags } from "@org/payments-testing";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe.concurrent.each([
  { command: "payments-mock", args: ["--help"], text: readme, heading: "## CLI" },
])("$command", ({ command, args, text, heading }) => {
  async function help(context: Parameters<typeof runCli>[0]): Promise<string[]> {
    const run = runCli(context, args);
    expect((await run.exited)[0]).toBe(0);
    return helpFlags(run.output().stdout);
  }

  it("--help lists the options of the documented table", async (context) => {
    const flags = await help(context);
    expect(flags.length).toBeGreaterThan(3);
    expect(tableFlags(text, heading)).toEqual(flags);
  });

  it("--help lists the options of the documented synopsis", async (context) => {
    // --help and --version are forms of their own, not options of a run.
    const flags = (await help(context)).filter((flag) => flag !== "--help" && flag !== "--version");
    expect(synopsisFlags(text, heading, command)).toEqual(flags);
  });
});
