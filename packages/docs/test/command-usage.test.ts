// The guides' usage of each `payments-mock` command (its synopsis and its table of options) says
// what the installed command's --help says: the same flags, each with the same kind of value. The
// server's own usage is the mock README's, held to --help by the mock's tests. The guide's fixture,
// run against a sandbox, prints the lines the guide shows.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startMock } from "@org/payments-mock";
import { helpFlags, synopsisFlags, tableFlags } from "@org/payments-testing";
import { describe, expect, it } from "vitest";
import { blocksOf } from "./support/guide-blocks.ts";

const guide = (slug: string) =>
  readFileSync(new URL(`../guides/${slug}.md`, import.meta.url), "utf8");
const proxyGuide = guide("proxy");
const commandLine = guide("cli");
/** The installed command: the file the mock's package.json names as its `bin`. */
const manifest = createRequire(import.meta.url).resolve("@org/payments-mock/package.json");
const command = path.join(
  path.dirname(manifest),
  JSON.parse(readFileSync(manifest, "utf8")).bin["payments-mock"],
);

describe.concurrent.each([
  {
    command: "payments-mock proxy",
    args: ["proxy", "--help"],
    text: proxyGuide,
    heading: "# The validating proxy",
  },
  ...["readiness", "impact", "fixtures", "trigger", "listen", "logs tail"].map((name) => ({
    command: `payments-mock ${name}`,
    args: [name.split(" ")[0] ?? name, "--help"],
    text: commandLine,
    heading: `## payments-mock ${name}`,
  })),
])("$command", ({ command: name, args, text, heading }) => {
  async function help(): Promise<string[]> {
    const { stdout } = await promisify(execFile)(process.execPath, [command, ...args], {
      env: { ...process.env, PORT: "", HOST: "" },
    });
    return helpFlags(stdout);
  }

  it("--help lists the options of the documented table", async () => {
    const flags = await help();
    expect(flags.length).toBeGreaterThan(2);
    expect(tableFlags(text, heading)).toEqual(flags);
  });

  it("--help lists the options of the documented synopsis", async () => {
    // --help and --version are forms of their own, not options of a run.
    const flags = (await help()).filter((flag) => flag !== "--help" && flag !== "--version");
    expect(synopsisFlags(text, heading, name)).toEqual(flags);
  });
});

describe("the command line guide's fixture", () => {
  it("prints, run against a sandbox, the lines the guide shows after it", async () => {
    const blocks = blocksOf(commandLine, "guides/cli.md");
    const fixture = blocks.findIndex((block) => block.language === "yaml");
    const shown = blocks[fixture + 1];
    expect(shown?.language).toBe("text");
    const folder = mkdtempSync(path.join(tmpdir(), "docs-cli-fixture-"));
    const sandbox = await startMock({ stateful: true });
    try {
      const file = path.join(folder, "fixture.yaml");
      writeFileSync(file, blocks[fixture]?.code ?? "");
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [command, "fixtures", file, "--url", sandbox.url],
        { env: { PATH: process.env.PATH, PAYMENTS_API_KEY: "docs-cli-guide-fixture-key" } },
      );
      const ids = (text: string) =>
        text
          .trim()
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>");
      expect(ids(stdout)).toBe(ids(shown?.code ?? ""));
    } finally {
      await sandbox.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
