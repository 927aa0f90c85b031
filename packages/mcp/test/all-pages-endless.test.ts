// `all_pages` against an API that never ends its list: empty pages each with a new cursor, or
// the same cursor again. The call stops with a tool error saying so, after a bounded number of
// requests, and the session goes on.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it, type TestContext } from "vitest";
import { callTool } from "../src/call-tool.ts";
import { tools } from "../src/generated/tools.ts";
import { ALL_PAGES_MAX_PAGES } from "../src/limits.ts";
import { contextOf } from "../src/options.ts";
import { startCustomersApi } from "./support/servers.js";
import { SECRET_KEY, startSession, textOf } from "./support/session.js";

/** An API whose GET /customers answers `page(n)` to its n-th request (from 1), and 404 else. */
async function endlessApi(context: TestContext, page: (n: number) => unknown) {
  let asked = 0;
  const api = await startCustomersApi((outgoing) => {
    asked++;
    outgoing.writeHead(200, { "content-type": "application/json" });
    outgoing.end(JSON.stringify(page(asked)));
  });
  context.onTestFinished(() => api.stop());
  const session = await startSession(api.url);
  context.onTestFinished(() => session.close());
  return { session, asked: () => asked };
}

it("stops after a bounded number of empty pages that each give a new cursor", async (context) => {
  const api = await endlessApi(context, (n) => ({ items: [], cursor: `c${n}` }));
  const result = await api.session.call("listCustomers", { all_pages: true });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toBe(
    `listCustomers with all_pages stopped after ${ALL_PAGES_MAX_PAGES} pages, 0 items: it reads at most ${ALL_PAGES_MAX_PAGES} pages in one call, and the API still answered a next cursor. Pass a larger \`page_size\`, or go on from \`cursor\` "c${ALL_PAGES_MAX_PAGES}".`,
  );
  expect(api.asked()).toBe(ALL_PAGES_MAX_PAGES);
  expect((await api.session.tools()).length).toBeGreaterThan(0);
});

it("stops at a cursor the API answered before, naming it", async (context) => {
  // c1, c2, then c1 again: a loop of two pages.
  const api = await endlessApi(context, (n) => ({
    items: [{ n }],
    cursor: n % 2 === 1 ? "c1" : "c2",
  }));
  const result = await api.session.call("listCustomers", { all_pages: true });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain(
    'listCustomers with all_pages stopped: the API answered the cursor "c1" a second time (after 3 pages, 3 items)',
  );
  expect(api.asked()).toBe(3);
});

it("stops at once when the API answers the cursor it was given", async (context) => {
  const cursor = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
  const api = await endlessApi(context, () => ({ items: [], cursor }));
  const result = await api.session.call("listCustomers", { all_pages: true, cursor });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain(`the API answered the cursor "${cursor}" a second time`);
  expect(api.asked()).toBe(1);
});

it("reads on from a prev_cursor by the answers' cursors, without sending the prev_cursor again", async (context) => {
  // Like the sandbox: a prev_cursor gives the page before it, whose cursor is that prev_cursor;
  // a request with both reads by the prev_cursor.
  const before = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
  const queries: string[] = [];
  const api = createServer((incoming, outgoing) => {
    const query = new URL(incoming.url ?? "/", "http://x").searchParams;
    queries.push(query.toString());
    const page = query.has("prev_cursor")
      ? { items: [{ n: 1 }], cursor: query.get("prev_cursor"), prev_cursor: null }
      : { items: [{ n: 2 }], prev_cursor: query.get("cursor") };
    outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(() => void api.close());
  const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const list = tools.find((tool) => tool.name === "listAutorampTransactions");
  const result = await callTool(
    contextOf({ apiKey: SECRET_KEY, baseUrl, log: () => undefined }),
    list as NonNullable<typeof list>,
    { all_pages: true, prev_cursor: before },
  );
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent?.items).toEqual([{ n: 1 }, { n: 2 }]);
  expect(queries).toEqual([
    `page_size=100&prev_cursor=${before}`,
    `page_size=100&cursor=${before}`,
  ]);
});

it("says which page an API error answered, and the cursor to go on from", async (context) => {
  const next = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
  const api = createServer((incoming, outgoing) => {
    const later = incoming.url?.includes("cursor=");
    outgoing.writeHead(later ? 400 : 200, { "content-type": "application/json" });
    outgoing.end(
      JSON.stringify(later ? { title: "Unknown cursor" } : { items: [{ n: 1 }], cursor: next }),
    );
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(() => void api.close());
  const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const list = tools.find((tool) => tool.name === "listCustomers");
  const result = await callTool(
    contextOf({ apiKey: SECRET_KEY, baseUrl, log: () => undefined }),
    list as NonNullable<typeof list>,
    { all_pages: true },
  );
  expect(result.isError).toBe(true);
  expect(result.content[0]?.text).toContain("listCustomers failed with HTTP 400: Unknown cursor");
  expect(result.content[0]?.text).toContain(
    `all_pages: the API answered this to page 2, asked with \`cursor\` "${next}" (after 1 page, 1 item); call again with that cursor to go on`,
  );
});
