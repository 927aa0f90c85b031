// The README tells what the server does: every tool in its table, the numbers it keeps to.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tools } from "../src/generated/tools.ts";
import {
  ALL_PAGES_MAX_CHARACTERS,
  ALL_PAGES_MAX_PAGES,
  ALL_PAGES_PAGE_SIZE,
  DEFAULT_HTTP_PORT,
  IDEMPOTENCY_WINDOW_MS,
  SESSION_IDLE_MS,
} from "../src/limits.ts";
import { DEFAULT_BASE_URL } from "../src/options.ts";
import { MIN_KEY_LENGTH } from "../src/redact.ts";
import { DEFAULT_TEST_MODE_TOOLS } from "../src/toolsets.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** The README's prose with each run of white space one space, as a reader sees it. */
const prose = readme.replace(/\s+/g, " ");

describe("the README", () => {
  it.each(tools.map((tool) => [tool.name, tool.tag]))("lists %s under %s", (name, tag) => {
    const row = readme.split("\n").find((line) => line.startsWith(`| ${tag} `));
    expect(row, `a row for ${tag}`).toBeDefined();
    expect(row).toContain(`\`${name}\``);
  });

  it("marks in bold the test-mode tools of the default list, and no other", () => {
    for (const tool of tools.filter((candidate) => candidate.group === "test-mode")) {
      const bold = readme.includes(`**\`${tool.name}\`**`);
      expect(bold, tool.name).toBe(DEFAULT_TEST_MODE_TOOLS.has(tool.name));
    }
  });

  it("says what HTTP answers a body that is not a JSON-RPC message, as http.test.ts finds it", () => {
    expect(prose).toContain(
      "Over HTTP, the SDK answers a body that is not JSON and JSON that is not a JSON-RPC message alike, with the parse error (-32700, where stdio answers the latter -32600), id null and status 400",
    );
  });

  it("states the key length under which a key is easy to guess", () => {
    expect(prose).toContain(`shorter than **${MIN_KEY_LENGTH}** characters`);
  });

  it("states the all_pages cap and the idempotency window the server keeps", () => {
    expect(prose).toContain(
      `over **${ALL_PAGES_MAX_CHARACTERS.toLocaleString("en")}** characters of JSON`,
    );
    expect(prose).toContain(`(**${ALL_PAGES_PAGE_SIZE}** a page unless \`page_size\``);
    expect(prose).toContain(`It reads at most **${ALL_PAGES_MAX_PAGES}** pages in one call`);
    expect(prose).toContain(`for **${IDEMPOTENCY_WINDOW_MS / 60_000} minutes**`);
  });

  it("states the defaults the server starts with", () => {
    expect(prose).toContain(`| \`${DEFAULT_BASE_URL}\`, the local sandbox |`);
    expect(prose).toContain(`HTTP on \`127.0.0.1:${DEFAULT_HTTP_PORT}\`, at \`/mcp\``);
    expect(prose).toContain(`serves \`http://127.0.0.1:${DEFAULT_HTTP_PORT}/mcp\``);
    expect(SESSION_IDLE_MS).toBe(60 * 60 * 1000);
    expect(prose).toContain("A session with no request open for an hour");
  });
});
