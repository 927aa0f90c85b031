// The proxy guide's usage of `payments-mock proxy` (its synopsis and its table of options) says
// what the installed command's --help says: the same flags, each with the same kind of value.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { helpFlags, synopsisFlags, tableFlags } from "@org/payments-testing";
import { describe, expect, it } from "vitest";

const proxyGuide = readFileSync(new URL("../guides/proxy.md", import.meta.url), "utf8");
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
])("$command", ({ command: name, args, text, heading }) => {
  async function help(): Promise<string[]> {
    const { stdout } = await promisify(execFile)(process.execPath, [command, ...args], {
      env: { ...process.env, PORT: "", HOST: "" },
    });
    return helpFlags(stdout);
  }

  it("--help lists the options of the documented table", async () => {
    const flags = await help();
    expect(flags.length).toBeGreaterThan(5);
    expect(tableFlags(text, heading)).toEqual(flags);
  });

  it("--help lists the options of the documented synopsis", async () => {
    const flags = (await help()).filter((flag) => flag !== "--help");
    expect(synopsisFlags(text, heading, name)).toEqual(flags);
  });
});
