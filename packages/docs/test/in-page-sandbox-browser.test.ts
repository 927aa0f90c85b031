// The docs site with no server, in headless Chromium (Debian's `chromium`): the built site served
// as static files, and nothing at the consoles' URL. Through the pages' consoles alone, a reader
// adds a webhook, onboards a business customer to Active, opens an autoramp, deposits into it,
// advances the clock a day and reads the events, all answered by the in-page sandbox (the site's
// service worker), whose notice the pages show; a receiver's redirect to another host is not
// followed, a Sandbox URL in capitals is answered as the browser writes it, and one ending in a
// path prefix (`…/api/v2`) answers the API's paths below it; a sandbox that starts at the
// consoles' URL while the page is open takes over from the page's own, and hands back when it stops. The consoles' URL is a port closed here rather
// than the default 127.0.0.1:4010, where another sandbox of this machine may answer. Then the
// first load: the same files whether or not a sandbox answers at that URL, none of the in-page
// sandbox's among them, and with a sandbox answering, no worker even after a send.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { loadSpec } from "@org/payments-spec";
import { startTestSandbox, type TestServer } from "@org/payments-testing";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_WORKER } from "../console/in-page-sandbox.ts";
import { IN_PAGE_SCRIPT } from "../console/lazy-in-page-sandbox.ts";
import { distDir } from "../src/built-paths.ts";
import { TEST_MODE_PAGE } from "../src/pages.ts";
import { startStaticServer } from "../src/static-server.ts";
import { artifactsFolder } from "./support/artifacts.ts";
import { type ChromiumRun, launchRecordedPage, recordPage } from "./support/browser-page.ts";

const artifactsDir = artifactsFolder();
const apiKey = `in-page-${crypto.randomUUID()}`;
const { WebhookTopic } = loadSpec().components.schemas as Record<string, { enum: string[] }>;

let docs: Awaited<ReturnType<typeof startStaticServer>>;
let chromiumRun: ChromiumRun;
let page: Page;
/** A second tab, on the test-mode reference: each reference stays loaded in a tab of its own, and
 * going from one console to another of the same reference is a hash navigation, not a reload. */
let testModeTab: Page;
/** The consoles' URL: a port nothing listens on. */
let nowhere: string;
let receiver: Server;
let receiverUrl: string;
const delivered: { topic: string }[] = [];
const requests: string[] = [];
const errors: string[] = [];
const fromWorker: string[] = [];
/** The API reference's first load in this file's fresh profile, with nothing at the consoles' URL. */
let firstLoadWithout: FirstLoad;

/** A port that was free a moment ago, and is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Page settings the consoles keep (settings.ts), set before the page's scripts run. */
async function consoleSettings(on: Page, sandboxUrl: string) {
  await on.context().addInitScript(
    ({ url, key }) => {
      localStorage.setItem("payments-console.sandbox-url", url);
      sessionStorage.setItem("payments-console.api-key", key);
    },
    { url: sandboxUrl, key: apiKey },
  );
}

beforeAll(async () => {
  docs = await startStaticServer({ root: distDir });
  nowhere = `http://127.0.0.1:${await closedPort()}`;
  // A webhook receiver on this machine that answers CORS, as the in-page sandbox delivers with
  // the browser's fetch.
  receiver = createServer(async (request, response) => {
    const cors = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Allow-Methods": "POST",
    };
    let text = "";
    for await (const chunk of request) text += chunk;
    if (request.method === "POST") delivered.push(JSON.parse(text));
    response.writeHead(request.method === "POST" ? 200 : 204, cors).end();
  }).listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  ({ chromiumRun, page } = await launchRecordedPage(requests, errors));
  testModeTab = await chromiumRun.context.newPage();
  recordPage(testModeTab, requests, errors);
  for (const tab of [page, testModeTab]) {
    tab.on("response", (response) => {
      if (response.fromServiceWorker()) fromWorker.push(response.url());
    });
  }
  await consoleSettings(page, nowhere);
  // The page's first load is also the first load of "the first load" below, without a sandbox:
  // the reference stays loaded in this tab for the consoles of the test that follows.
  firstLoadWithout = await firstLoad(page);
}, 60_000);

afterAll(async () => {
  await chromiumRun?.close();
  await docs?.close();
  receiver?.close();
});

/** The tab of `file`: `page` for `index.html`, `testModeTab` for the test-mode reference. */
const tabOf = (file: string) => (file === TEST_MODE_PAGE ? testModeTab : page);

/** Opens `operationId`'s console on `file` (`index.html` or the test-mode reference), in its tab. */
async function openConsole(file: string, tag: string, operationId: string): Promise<Locator> {
  const slug = tag.toLowerCase().replaceAll(" ", "-");
  const tab = tabOf(file);
  // A tab in the background gets no animation frames, and Playwright waits for two of them
  // (the element stable) before each click: about a second a click.
  await tab.bringToFront();
  await tab.goto(`${docs.url}${file}#/${slug}/${operationId.toLowerCase()}`);
  const console = tab.locator(`section[data-console-operation="${operationId}"]`);
  await console.waitFor({ timeout: 30_000 });
  return console;
}

/** Fills the console's path parameters, query parameters and body, sends, and reads the answer. */
async function send(
  console: Locator,
  {
    path: pathParameters = {},
    query = {},
    body,
  }: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: unknown }> {
  for (const [name, value] of Object.entries(pathParameters)) {
    await console.locator(`[data-param-in="path"][data-param-name="${name}"]`).fill(value);
  }
  for (const [name, value] of Object.entries(query)) {
    await console.locator(`[data-param-in="query"][data-param-name="${name}"]`).fill(value);
  }
  if (body !== undefined) await console.locator("[data-console-body]").fill(JSON.stringify(body));
  await console.locator("[data-console-send]").click();
  await console.locator('[data-console-response][data-state="done"]').waitFor({ timeout: 60_000 });
  const status = Number(
    await console.locator("[data-console-response]").getAttribute("data-status"),
  );
  const text = (await console.locator("[data-console-response-body]").textContent()) ?? "";
  return { status, body: text === "" ? undefined : JSON.parse(text) };
}

/** The notice of `file`'s tab: its state once the in-page sandbox answers. */
async function notice(file: string) {
  const tab = tabOf(file);
  const shown = tab.locator("[data-in-page-sandbox]");
  await tab.locator('[data-in-page-sandbox="in-page"]').waitFor({ timeout: 60_000 });
  return (await shown.textContent()) ?? "";
}

interface FirstLoad {
  files: string[];
  workers: string[];
  afterSend: string[];
}

/**
 * The files `fresh` (a page of a fresh profile, with the consoles' settings) loads for the API
 * reference, then the service workers registered after a send from its console.
 */
async function firstLoad(fresh: Page): Promise<FirstLoad> {
  const loaded: string[] = [];
  fresh.on("request", (request) => loaded.push(new URL(request.url()).pathname));
  await fresh.goto(`${docs.url}index.html#/customers/listcustomers`);
  const console = fresh.locator('section[data-console-operation="listCustomers"]');
  await console.waitFor({ timeout: 30_000 });
  await fresh.waitForLoadState("networkidle");
  const files = [...new Set(loaded)].sort();
  // Sending asks the URL: with a sandbox there, it answers, and no worker is registered.
  await console.locator("[data-console-send]").click();
  await console.locator('[data-console-response][data-state="done"]').waitFor({ timeout: 60_000 });
  const workers = await fresh.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((r) => r.active?.scriptURL ?? ""),
  );
  return { files, workers, afterSend: [...new Set(loaded)] };
}

describe("the static docs site with no sandbox at the consoles' URL", () => {
  it("onboards a customer to Active, funds an onramp, advances the clock and reads the events", async () => {
    const webhook = await send(await openConsole(TEST_MODE_PAGE, "Simulations", "addWebhook"), {
      body: { url: receiverUrl, topics: WebhookTopic?.enum },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
    const shown = await notice(TEST_MODE_PAGE);
    // The answer says where it came from: not the URL it names, where nothing answers.
    const answered = testModeTab.locator(
      'section[data-console-operation="addWebhook"] [data-console-response]',
    );
    expect(await answered.getAttribute("data-answered-by")).toBe("in-page");
    expect(await answered.textContent()).toContain(
      `from ${nowhere}/_sandbox/webhooks, answered by the sandbox in this page`,
    );
    expect(shown).toContain(`No sandbox answers at ${nowhere}`);
    expect(shown).toContain("sandbox running in your browser");
    await testModeTab.screenshot({ path: path.join(artifactsDir, "in-page-sandbox-notice.png") });

    const created = await send(await openConsole("index.html", "Customers", "createCustomer"), {
      body: { customer_type: "Business", email: "in-page@example.com", name: "In Page GmbH" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const customer = created.body as { id: string; status: string };
    expect(customer.status).toBe("SigningsRequired");
    await notice("index.html");

    const unsigned = await send(
      await openConsole("index.html", "Documents", "listUnsignedDocuments"),
      { path: { id: customer.id } },
    );
    const documents = (unsigned.body as { items: { id: string }[] }).items;
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) {
      const signing = await send(await openConsole("index.html", "Signings", "createSigning"), {
        path: { id: customer.id },
        body: { document_id: document.id, signed: true },
      });
      expect(signing.status, JSON.stringify(signing.body)).toBe(200);
    }
    const identification = await send(
      await openConsole("index.html", "Identifications", "createDirectIdentification"),
      { path: { id: customer.id }, body: { type: "Direct" } },
    );
    expect(identification.status, JSON.stringify(identification.body)).toBe(200);
    expect((identification.body as { status: string }).status).toBe("Pending");

    const minutes = await send(await openConsole(TEST_MODE_PAGE, "Clock", "advanceClock"), {
      body: { seconds: 600 },
    });
    expect(minutes.status, JSON.stringify(minutes.body)).toBe(200);
    const listed = await send(await openConsole("index.html", "Customers", "listCustomers"), {
      query: { search_term: customer.id },
    });
    expect((listed.body as { items: { status: string }[] }).items[0]?.status).toBe("Active");

    const autoramp = await send(await openConsole("index.html", "Autoramps", "createAutoramp"), {
      body: {
        customer_id: customer.id,
        destination_currency: { blockchain: "Polygon", token: "USDC" },
        recipient_account: {
          type: "Fiat",
          account_identifier: { iban: "DE89370400440532013000" },
        },
        source_currencies: [{ code: "EUR", type: "Fiat" }],
      },
    });
    expect(autoramp.status, JSON.stringify(autoramp.body)).toBe(200);
    const deposit = await send(
      await openConsole(TEST_MODE_PAGE, "Simulations", "simulateDeposit"),
      { path: { id: (autoramp.body as { id: string }).id }, body: { amount: "1000.00" } },
    );
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200);
    const transaction = deposit.body as { id: string; status: string };
    const day = await send(await openConsole(TEST_MODE_PAGE, "Clock", "advanceClock"), {
      body: { seconds: 86_400 },
    });
    expect(day.status).toBe(200);
    const settled = await send(
      await openConsole("index.html", "Autoramp transactions", "listAutorampTransactionsByIds"),
      { query: { ids: transaction.id } },
    );
    expect((settled.body as { items: { status: string }[] }).items[0]?.status).toBe("Completed");

    const events = await send(await openConsole(TEST_MODE_PAGE, "Events", "listEvents"), {
      query: { page_size: "100" },
    });
    expect(events.status).toBe(200);
    const logged = (events.body as { items: { topic: string; delivered: boolean }[] }).items;
    const topics = new Set(logged.map((event) => event.topic));
    expect(topics).toContain("CustomerStatus");
    expect(topics).toContain("TransactionStatus");
    expect(logged.every((event) => event.delivered)).toBe(true);
    // The stream of the same events stays open: the console shows its start, then closes it.
    const stream = await openConsole(TEST_MODE_PAGE, "Events", "streamEvents");
    await stream.locator('[data-param-in="header"][data-param-name="Last-Event-ID"]').fill("");
    await stream.locator('[data-param-in="query"][data-param-name="after"]').fill("0");
    await stream.locator("[data-console-send]").click();
    await stream.locator('[data-console-response][data-state="done"]').waitFor({ timeout: 30_000 });
    expect(await stream.locator("[data-console-response-body]").textContent()).toContain(
      "event: CustomerStatus",
    );
    expect(await stream.locator("[data-console-send]").isEnabled()).toBe(true);
    await testModeTab.screenshot({ path: path.join(artifactsDir, "in-page-sandbox-events.png") });
    // Delivered through the browser's fetch to the receiver on this machine.
    expect(delivered.map((event) => event.topic)).toEqual(
      expect.arrayContaining(["CustomerStatus", "TransactionStatus"]),
    );
  }, 300_000);

  it("delivers to no other host, even when the receiver on this machine redirects there", async () => {
    // Another host (127.0.0.2, loopback too) counts what reaches it; the receiver on 127.0.0.1
    // redirects every delivery there, answering CORS as a receiver for the page must.
    const cors = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Allow-Methods": "POST",
    };
    const reachedElsewhere: string[] = [];
    const elsewhere = createServer((request, response) => {
      reachedElsewhere.push(`${request.method} ${request.url}`);
      response.writeHead(204, cors).end();
    }).listen(0, "127.0.0.2");
    await once(elsewhere, "listening");
    const elsewhereUrl = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}/hooks`;
    const redirecting = createServer((request, response) => {
      request.resume();
      if (request.method === "POST") response.writeHead(307, { ...cors, Location: elsewhereUrl });
      else response.writeHead(204, cors);
      response.end();
    }).listen(0, "127.0.0.1");
    await once(redirecting, "listening");
    const redirectingUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`;
    try {
      const webhook = await send(await openConsole(TEST_MODE_PAGE, "Simulations", "addWebhook"), {
        body: { url: redirectingUrl, topics: ["Ping"] },
      });
      expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
      const created = await send(await openConsole("index.html", "Customers", "createCustomer"), {
        body: { customer_type: "Person", email: "redirected@example.com" },
      });
      const pinged = await send(await openConsole("index.html", "Webhooks", "pingWebhook"), {
        path: { id: (webhook.body as { id: string }).id },
        body: { customer_id: (created.body as { id: string }).id },
      });
      expect(pinged.status, JSON.stringify(pinged.body)).toBe(200);
      const events = await send(await openConsole(TEST_MODE_PAGE, "Events", "listEvents"), {
        query: { webhook_id: (webhook.body as { id: string }).id },
      });
      const [ping] = (events.body as { items: { delivered: boolean; failure_reason?: string }[] })
        .items;
      expect(ping).toMatchObject({
        delivered: false,
        failure_reason: expect.stringContaining("answered a redirect"),
      });
      expect(reachedElsewhere).toEqual([]);
    } finally {
      elsewhere.close();
      redirecting.close();
    }
  }, 300_000);

  it("answers a Sandbox URL written otherwise than the browser writes it (`HTTP://LOCALHOST:…/`), one with a path prefix, one on another host, and one that never answers", async () => {
    const fresh = await launchRecordedPage([], []);
    // The page's timers on a clock the test moves: the heartbeat (10 s) and the probe's limit
    // (20 s) come when the test says, not after that long.
    await fresh.page.clock.install();
    const silent = createServer(() => {}).listen(0, "127.0.0.1");
    await once(silent, "listening");
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const reachedOtherHost: string[] = [];
    const otherHost = createServer((request, response) => {
      reachedOtherHost.push(`${request.method} ${request.url}`);
      response.writeHead(204, { "Access-Control-Allow-Origin": "*" }).end();
    }).listen(0, "127.0.0.2");
    await once(otherHost, "listening");
    const otherHostUrl = `http://127.0.0.2:${(otherHost.address() as AddressInfo).port}`;
    try {
      const written = `HTTP://LOCALHOST:${new URL(nowhere).port}/`;
      await consoleSettings(fresh.page, written);
      await fresh.page.goto(`${docs.url}index.html#/customers/listcustomers`);
      const console = fresh.page.locator('section[data-console-operation="listCustomers"]');
      await console.locator("[data-console-send]").click({ timeout: 30_000 });
      const answer = console.locator("[data-console-response]");
      await console
        .locator('[data-console-response]:is([data-state="done"], [data-state="failed"])')
        .waitFor({ timeout: 60_000 });
      expect(await answer.getAttribute("data-state"), `${await answer.textContent()}`).toBe("done");
      expect(await answer.getAttribute("data-status")).toBe("200");

      // A key that fetch cannot send (a non-breaking hyphen pasted in): the console names the
      // header and its rule, without the key, and sends nothing.
      const keyField = console.locator('[data-console-setting="apiKey"]');
      const key = await keyField.inputValue();
      const unsendable = "sandbox\u2011key";
      await keyField.fill(unsendable);
      await console.locator("[data-console-send]").click();
      const problem = console.locator(
        '[data-console-problems] li[data-problem-field="X-API-Key"][data-problem-rule="latin1"]',
      );
      await problem.waitFor({ timeout: 10_000 });
      expect(await answer.textContent()).not.toContain(unsendable);
      await keyField.fill(key);

      // A base URL ending in the service's path prefix, as the API's servers say a partner's does:
      // the API's paths follow it, in the page's own sandbox as in a real one.
      const prefixed = `${nowhere}/api/v2`;
      await console.locator('[data-console-setting="sandboxUrl"]').fill(prefixed);
      await console.locator("[data-console-send]").click();
      await console
        .locator('[data-console-response]:is([data-state="done"], [data-state="failed"])')
        .waitFor({ timeout: 60_000 });
      expect(await answer.textContent()).toContain(`from ${prefixed}/customers`);
      expect(await answer.getAttribute("data-status"), `${await answer.textContent()}`).toBe("200");

      // A URL on another host, which the page's policy keeps its requests from: its own sandbox
      // does not ask that host either (as it does the page's URL on this machine every 10 s).
      await console.locator('[data-console-setting="sandboxUrl"]').fill(otherHostUrl);
      await console.locator("[data-console-send]").click();
      await console
        .locator('[data-console-response][data-state="failed"]')
        .waitFor({ timeout: 60_000 });
      // Nor does the note say that the page's sandbox answers there: nothing can.
      const refused = fresh.page.locator('[data-in-page-sandbox="unavailable"]');
      expect(await refused.textContent()).toContain("Content-Security-Policy");
      // A heartbeat comes and goes; then the page's sandbox answers this machine's URL again,
      // by which time a check of the other host would have arrived.
      await fresh.page.clock.fastForward(12_000);
      await console.locator('[data-console-setting="sandboxUrl"]').fill(nowhere);
      await console.locator("[data-console-send]").click();
      await console
        .locator('[data-console-response][data-state="done"]')
        .waitFor({ timeout: 60_000 });
      expect(reachedOtherHost).toEqual([]);

      // A URL where something takes the connection and never answers: the page waits for it (a
      // slow sandbox is no missing one), and says at once that it is sending.
      await console.locator('[data-console-setting="sandboxUrl"]').fill(silentUrl);
      await console.locator("[data-console-send]").click();
      await console
        .locator('[data-console-response][data-state="sending"]')
        .waitFor({ timeout: 3_000 });
      expect(await answer.textContent()).toContain(`Sending GET ${silentUrl}/customers`);

      // The reader goes back to a URL with nothing there, and sends from another console, before
      // the page gives the silent one up (20 s): that late verdict leaves the page's sandbox on
      // the URL in use.
      await console.locator('[data-console-setting="sandboxUrl"]').fill(nowhere);
      const create = fresh.page.locator('section[data-console-operation="createCustomer"]');
      const created = async () => {
        await create.locator("[data-console-send]").click();
        await create
          .locator('[data-console-response]:is([data-state="done"], [data-state="failed"])')
          .waitFor({ timeout: 60_000 });
        return create.locator("[data-console-response]").getAttribute("data-status");
      };
      expect(await created()).toBe("200");
      // The silent URL's probe gives up (its 20 s, on the page's clock): its verdict comes late.
      await fresh.page.clock.fastForward(21_000);
      expect(await created()).toBe("200");
      expect(await fresh.page.locator("[data-in-page-sandbox]").textContent()).toContain(
        `No sandbox answers at ${nowhere},`,
      );
    } finally {
      await fresh.chromiumRun.close();
      silent.close();
      silent.closeAllConnections();
      otherHost.close();
    }
  }, 120_000);

  it("answers from the page itself: no request left the page's origin but to the consoles' URL", () => {
    const origin = new URL(docs.url).origin;
    const elsewhere = requests.filter((url) => new URL(url).origin !== origin);
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(elsewhere.filter((url) => !url.startsWith(`${nowhere}/`))).toEqual([]);
    // Each page asked once whether a sandbox answers there; the service worker answered the rest.
    const asked = elsewhere.filter((url) => url === `${nowhere}/_sandbox/health`);
    expect(
      elsewhere.filter((url) => !asked.includes(url)).every((url) => fromWorker.includes(url)),
    ).toBe(true);
    // The probes' refused connections are the only errors.
    expect(errors.filter((message) => !message.includes("ERR_CONNECTION_REFUSED"))).toEqual([]);
  });

  it("leaves the consoles to a sandbox that starts at their URL while the page is open, and takes them back when it stops; says when the browser stopped the page's own", async () => {
    const console = await openConsole("index.html", "Customers", "listCustomers");
    expect((await send(console, {})).status).toBe(200);
    await notice("index.html");
    // What starts at the consoles' URL: any server answering there with CORS, as a sandbox does.
    const marker = "the sandbox started at the consoles' URL";
    const started = createServer((request, response) => {
      request.resume();
      const cors = {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Allow-Methods": "*",
      };
      if (request.method === "OPTIONS") response.writeHead(204, cors).end();
      else {
        response
          .writeHead(200, { ...cors, "Content-Type": "application/json" })
          .end(JSON.stringify({ items: [], answered_by: marker }));
      }
    }).listen(Number(new URL(nowhere).port), "127.0.0.1");
    await once(started, "listening");
    try {
      // Without a reload: the note goes, and the next send reaches that sandbox.
      await page
        .locator('[data-in-page-sandbox="off"]')
        .waitFor({ state: "attached", timeout: 40_000 });
      const answered = await send(console, {});
      expect(answered).toEqual({ status: 200, body: { items: [], answered_by: marker } });
      expect(
        await console.locator("[data-console-response]").getAttribute("data-answered-by"),
      ).toBe(null);
      // And the worker is taken away, as when the page finds a sandbox at its first send.
      expect(await page.evaluate(async () => navigator.serviceWorker.getRegistration())).toBe(
        undefined,
      );

      // That sandbox stops: the send that finds nothing there says so, and the next one is
      // answered by the page's own sandbox again, still without a reload.
      started.close();
      started.closeAllConnections();
      await console.locator("[data-console-send]").click();
      await console
        .locator('[data-console-response][data-state="failed"]')
        .waitFor({ timeout: 60_000 });
      const again = await send(console, {});
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).not.toHaveProperty("answered_by");
      expect(await notice("index.html")).toContain("sandbox running in your browser");

      // The browser stops the worker (as it may stop any idle or background one): its sandbox is
      // made again, empty, and the note says so rather than that the data lasts.
      const cdp = await page.context().newCDPSession(page);
      try {
        await cdp.send("ServiceWorker.enable");
        await cdp.send("ServiceWorker.stopAllWorkers");
      } finally {
        await cdp.detach();
      }
      await page
        .locator('[data-in-page-sandbox="in-page"]', { hasText: "started again" })
        .waitFor({ timeout: 30_000 });
      expect((await send(console, {})).status).toBe(200);
    } finally {
      started.close();
    }
  }, 120_000);
});

describe("the first load", () => {
  let sandbox: TestServer;

  beforeAll(async () => {
    sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
  }, 60_000);

  afterAll(async () => {
    await sandbox?.stop();
  });

  /** The first load of the API reference in a fresh profile, with the consoles' URL `url`. */
  async function firstLoadWith(url: string): Promise<FirstLoad> {
    const fresh = await launchRecordedPage([], []);
    try {
      await consoleSettings(fresh.page, url);
      return await firstLoad(fresh.page);
    } finally {
      await fresh.chromiumRun.close();
    }
  }

  it("loads the same files with or without a sandbox at the consoles' URL, the worker not among them", async () => {
    const withSandbox = await firstLoadWith(sandbox.url);
    const without = firstLoadWithout;
    expect(withSandbox.files).toEqual(without.files);
    expect(withSandbox.files).not.toContain(`/${SANDBOX_WORKER}`);
    expect(withSandbox.files).not.toContain(`/assets/${IN_PAGE_SCRIPT}`);
    expect(withSandbox.files).toContain("/assets/console.js");
    // Only where no sandbox answered did the send load it.
    expect(withSandbox.workers).toEqual([]);
    expect(withSandbox.afterSend).not.toContain(`/${SANDBOX_WORKER}`);
    expect(without.workers).toEqual([`${docs.url}${SANDBOX_WORKER}`]);
  }, 180_000);
});
