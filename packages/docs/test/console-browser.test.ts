// The console in headless Chromium (Debian's `chromium`), on the built site served as `npm start`
// serves it: the docs server forwarding to a stateful sandbox started here. It finds a console on
// every operation's page (and the operation in the navigation), sends through them, and reads the answers and events on the page; then
// the static build, where the console asks for the sandbox's URL. Screenshots: see
// support/artifacts.ts.
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { listOperations, loadSpec, testModeSpecPath } from "@org/payments-spec";
import { startReceiver, startTestSandbox, type TestServer } from "@org/payments-testing";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsOf, eventsSince, type SandboxEvent } from "../console/events.ts";
import { distDir } from "../src/built-paths.ts";
import { TEST_MODE_PAGE } from "../src/pages.ts";
import { startStaticServer } from "../src/static-server.ts";
import { artifactsFolder } from "./support/artifacts.ts";
import { type ChromiumRun, launchRecordedPage } from "./support/browser-page.ts";
import { pointWebhooksAt } from "./support/point-webhooks.ts";

const artifactsDir = artifactsFolder();
const operations = listOperations(loadSpec());
type Operation = (typeof operations)[number];
const testModeRoutes = listOperations(loadSpec(testModeSpecPath));
const apiKey = "console-test-key";
let webhookId: string;
const { WebhookTopic } = loadSpec().components.schemas as Record<string, { enum: string[] }>;
const webhookTopics = WebhookTopic?.enum ?? [];

let sandbox: TestServer;
let docs: Awaited<ReturnType<typeof startStaticServer>>;
let staticDocs: Awaited<ReturnType<typeof startStaticServer>>;
let chromiumRun: ChromiumRun;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let page: Page;
const requests: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
  docs = await startStaticServer({ root: distDir, sandbox: sandbox.url });
  staticDocs = await startStaticServer({ root: distDir });
  // Deliveries go to a receiver here, not to the seed's webhook host on the internet.
  receiver = await startReceiver();
  await pointWebhooksAt(sandbox.url, receiver.url);
  // The key the consoles send is a partner of its own, which starts with no webhook: one of its
  // own, to the receiver, subscribed to every topic.
  webhookId = await fetch(`${sandbox.url}/_sandbox/webhooks`, {
    method: "POST",
    headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
    body: JSON.stringify({
      url: receiver.url,
      topics: webhookTopics,
    }),
  }).then(async (answer) => ((await answer.json()) as { id: string }).id);
  ({ chromiumRun, page } = await launchRecordedPage(requests, errors));
}, 60_000);

afterAll(async () => {
  await chromiumRun?.close();
  await docs?.close();
  await staticDocs?.close();
  await sandbox?.stop();
  await receiver?.stop();
});

/** Redoc's route of an operation: `#/<tag as a slug>/<operationid>`. */
function route({ tag, operationId }: { tag: string | undefined; operationId: string }) {
  return `#/${(tag ?? "").toLowerCase().replaceAll(" ", "-")}/${operationId.toLowerCase()}`;
}

/** The API's operations by tag, each tag's in the order Redoc shows them: the document's. */
function operationsByTag(): Operation[][] {
  const shownOrder = Object.entries(loadSpec().paths).flatMap(([path, item]) =>
    Object.keys(item ?? {}).map((method) => `${method} ${path}`),
  );
  const groups = new Map<string | undefined, Operation[]>();
  for (const entry of operations) groups.set(entry.tag, [...(groups.get(entry.tag) ?? []), entry]);
  return [...groups.values()].map((entries) =>
    entries.sort(
      (a, b) =>
        shownOrder.indexOf(`${a.method} ${a.path}`) - shownOrder.indexOf(`${b.method} ${b.path}`),
    ),
  );
}

/** Opens the operation's page (of the API's reference, or `page`) and returns its console. */
async function openConsole(
  on: Page,
  base: string,
  operationId: string,
  page = "",
): Promise<Locator> {
  const entry = [...operations, ...testModeRoutes].find(
    (candidate) => candidate.operationId === operationId,
  );
  if (!entry) throw new Error(`no operation ${operationId}`);
  await on.goto(`${base}${page}${route(entry)}`);
  const console = on.locator(`section[data-console-operation="${operationId}"]`);
  await console.waitFor({ timeout: 30_000 });
  return console;
}

/** Sends the console's request and waits for its answer (and, unless told, for its events). */
async function send(console: Locator) {
  await console.locator("[data-console-send]").click();
  await console.locator('[data-console-response][data-state="done"]').waitFor({ timeout: 30_000 });
  const status = Number(
    await console.locator("[data-console-response]").getAttribute("data-status"),
  );
  const body = (await console.locator("[data-console-response-body]").textContent()) ?? "";
  return { status, body };
}

async function sandboxEvents(): Promise<SandboxEvent[]> {
  const answer = await fetch(`${sandbox.url}/_sandbox/events?page_size=100`, {
    headers: { "X-API-Key": apiKey },
  });
  return eventsOf(await answer.json());
}

const shownEventIds = (console: Locator) =>
  console
    .locator("[data-event-id]")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-event-id")));

describe("the console, on the docs served beside the sandbox", () => {
  it("is listed in the overview, one link per operation", async () => {
    await page.goto(`${docs.url}#/section/try-it-in-the-sandbox`);
    await page.getByRole("heading", { name: "Try it in the sandbox" }).first().waitFor();
    const links = new Map(
      await page
        .locator("table a[href^='#/']")
        .evaluateAll((anchors) =>
          anchors.map((a) => [a.textContent ?? "", a.getAttribute("href") ?? ""] as const),
        ),
    );
    expect(links.size).toBe(operations.length);
    for (const entry of operations) expect(links.get(entry.operationId)).toBe(route(entry));
  }, 60_000);

  it("is on every operation's page, labelled with its operationId, method and path, and the navigation lists every operation", async () => {
    // Each navigation re-renders Redoc's page, most of what this test costs Chromium. Redoc
    // renders the operation routed to and, once scrolled there, the one above it, each inside the
    // element its own route scrolls to: so each tag's operations are taken last first, and one
    // already on the page is checked there rather than opened on its own route.
    for (const entries of operationsByTag()) {
      for (const entry of entries.reverse()) {
        const method = entry.method.toUpperCase();
        // Where the operation's route scrolls to: its console is inside it.
        const operation = page.locator(`[id="${route(entry).slice(2)}"]`);
        const console = operation.locator(`section[data-console-operation="${entry.operationId}"]`);
        if ((await console.count()) === 0) {
          await openConsole(page, docs.url, entry.operationId);
          // The tag's page: each console once, and only the tag's operations'.
          const shown = await page
            .locator("[data-console-operation]")
            .evaluateAll((consoles) =>
              consoles.map((c) => c.getAttribute("data-console-operation")),
            );
          expect(new Set(shown).size).toBe(shown.length);
          expect(
            shown.every((id) =>
              operations.some((o) => o.operationId === id && o.tag === entry.tag),
            ),
          ).toBe(true);
        }
        await console.waitFor();
        expect(await console.getAttribute("data-method")).toBe(method);
        expect(await console.getAttribute("data-path")).toBe(entry.path);
        // The console is the region named for the operation (the role query walks the
        // operation's element, not the whole page).
        const region = operation.getByRole("region", {
          name: `Try it: ${method} ${entry.path}`,
          exact: true,
        });
        expect(await region.getAttribute("data-console-operation")).toBe(entry.operationId);
        await console.getByRole("button", { name: `Send ${method} ${entry.path}` }).waitFor();
        expect(await console.locator("[data-console-operation-id]").textContent()).toBe(
          entry.operationId,
        );
        // The navigation lists it: its item, labelled with the summary followed by the method badge.
        expect(
          await page.locator(`.menu-content a[href="${route(entry)}"]`).textContent(),
          entry.operationId,
        ).toBe(`${entry.operation.summary}${entry.method}`);
        for (const parameter of entry.parameters.filter((p) => p.in === "path")) {
          const field = console.locator(
            `[data-param-in="path"][data-param-name="${parameter.name}"]`,
          );
          expect(await field.inputValue(), `${entry.operationId} ${parameter.name}`).toBe(
            String(parameter.example),
          );
        }
      }
    }
  }, 180_000);

  it("sends POST /customers: 200, the new customer, and the webhook events it caused", async () => {
    const console = await openConsole(page, docs.url, "createCustomer");
    await console.getByLabel("X-API-Key").fill(apiKey);
    const email = `console-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await console
      .locator("[data-console-body]")
      .fill(JSON.stringify({ customer_type: "Person", email, name: "Console Test" }, null, 2));
    const before = new Set((await sandboxEvents()).map((event) => event.id));
    const sent = page.waitForRequest((request) => request.url().endsWith("/sandbox/customers"));

    const { status, body } = await send(console);
    const request = await sent;
    expect(status).toBe(200);
    const customer = JSON.parse(body) as { id: string; email: string };
    expect(customer.email).toBe(email);
    expect(await console.locator("[data-console-status]").textContent()).toMatch(/^200 OK/);
    expect(
      await console.locator('[data-console-headers] [data-header="content-type"]').textContent(),
    ).toContain("application/json");
    const headers = await request.allHeaders();
    expect(headers["x-api-key"]).toBe(apiKey);
    expect(headers["idempotency-key"]).toBe(
      await console.locator("[data-console-idempotency-key]").textContent(),
    );

    const listed = await fetch(`${sandbox.url}/customers?search_term=${email}`, {
      headers: { "X-API-Key": apiKey },
    }).then((answer) => answer.json() as Promise<{ items: { id: string }[] }>);
    expect(listed.items.map((item) => item.id)).toEqual([customer.id]);

    // The events panel shows what the sandbox's log gained since the request. A create sends
    // events only where the sandbox does so; when it does, a CustomerCreated for this customer
    // must be among them.
    const events = console.locator("[data-console-events]");
    await console.locator('[data-console-events][data-state="done"]').waitFor({ timeout: 30_000 });
    let caused = eventsSince(before, await sandboxEvents());
    for (let check = 0; check < 3; check++) {
      if (JSON.stringify(await shownEventIds(console)) === JSON.stringify(caused.map((e) => e.id)))
        break;
      // A delivery recorded after the console stopped watching: ask it to look again.
      await events.getByRole("button", { name: "Check again" }).click();
      await console
        .locator('[data-console-events][data-state="done"]')
        .waitFor({ timeout: 30_000 });
      caused = eventsSince(before, await sandboxEvents());
    }
    expect(await shownEventIds(console)).toEqual(caused.map((event) => event.id));
    if (caused.length > 0) {
      const forCustomer = caused.filter(
        (event) => (event.payload as { customer_id?: string })?.customer_id === customer.id,
      );
      expect(forCustomer.map((event) => event.topic)).toContain("CustomerCreated");
      expect(await console.locator('[data-event-topic="CustomerCreated"]').count()).toBeGreaterThan(
        0,
      );
    }
    await console.screenshot({ path: path.join(artifactsDir, "console-create-customer.png") });

    // A second send gets a new idempotency key, so it creates a second customer.
    const again = await send(console);
    expect(again.status).toBe(200);
    expect((JSON.parse(again.body) as { id: string }).id).not.toBe(customer.id);
    expect(await console.locator("[data-console-idempotency-key]").textContent()).not.toBe(
      headers["idempotency-key"],
    );
  }, 120_000);

  it("sends GET /customers with the key entered once, and lists the new customers", async () => {
    const console = await openConsole(page, docs.url, "listCustomers");
    expect(await console.getByLabel("X-API-Key").inputValue()).toBe(apiKey);
    await console.locator('[data-param-name="search_term"]').fill("console-");
    const sent = page.waitForRequest((request) => request.url().includes("/sandbox/customers?"));
    const { status, body } = await send(console);
    expect(status).toBe(200);
    expect((await (await sent).allHeaders())["x-api-key"]).toBe(apiKey);
    const listed = JSON.parse(body) as { items: { email: string; name: string }[] };
    expect(listed.items).toHaveLength(2);
    expect(listed.items.every((item) => item.name === "Console Test")).toBe(true);
    await console.screenshot({ path: path.join(artifactsDir, "console-list-customers.png") });
  }, 60_000);

  it("sends the sub-partner entered once to the operations that take it", async () => {
    const subPartner = "5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58";
    const list = await openConsole(page, docs.url, "listCustomers");
    await list.getByLabel("X-SUB-PARTNER-ID").fill(subPartner);
    const sent = page.waitForRequest((request) => request.url().includes("/sandbox/customers"));
    const { status, body } = await send(list);
    expect(status).toBe(200);
    expect((await (await sent).allHeaders())["x-sub-partner-id"]).toBe(subPartner);
    // The seed's and the test's customers belong to the partner, not to this sub-partner.
    expect((JSON.parse(body) as { items: unknown[] }).items).toEqual([]);

    const documents = await openConsole(page, docs.url, "listDocuments");
    expect(await documents.locator('[data-console-setting="subPartnerId"]').count()).toBe(0);
    const unscoped = page.waitForRequest((request) => request.url().includes("/sandbox/documents"));
    expect((await send(documents)).status).toBe(200);
    expect((await (await unscoped).allHeaders())["x-sub-partner-id"]).toBeUndefined();

    const again = await openConsole(page, docs.url, "listCustomers");
    expect(await again.getByLabel("X-SUB-PARTNER-ID").inputValue()).toBe(subPartner);
    await again.getByLabel("X-SUB-PARTNER-ID").fill("");
  }, 60_000);

  it("updates the webhook and pings it, and shows the ping's delivery among the events", async () => {
    const update = await openConsole(page, docs.url, "updateWebhook");
    await update.getByLabel("X-API-Key").fill(apiKey);
    await update.locator('[data-param-in="path"][data-param-name="id"]').fill(webhookId);
    await update
      .locator("[data-console-body]")
      .fill(JSON.stringify({ label: "Console test", enabled: true }));
    const updated = await send(update);
    expect(updated.status, updated.body).toBe(200);
    expect(JSON.parse(updated.body)).toMatchObject({ label: "Console test", url: receiver.url });

    // A ping is for a customer of the partner's.
    const customer = await fetch(`${sandbox.url}/customers`, {
      method: "POST",
      headers: {
        "X-API-Key": apiKey,
        "Content-Type": "application/json",
        "IDEMPOTENCY-KEY": crypto.randomUUID(),
      },
      body: JSON.stringify({ customer_type: "Person", email: "ping@example.com" }),
    }).then(async (answer) => ((await answer.json()) as { id: string }).id);
    const ping = await openConsole(page, docs.url, "pingWebhook");
    await ping.locator('[data-param-in="path"][data-param-name="id"]').fill(webhookId);
    await ping.locator("[data-console-body]").fill(JSON.stringify({ customer_id: customer }));
    const delivered = receiver.deliveries.length;
    const { status, body } = await send(ping);
    expect(status, body).toBe(200);
    expect(JSON.parse(body)).toBe(true);
    await ping.locator('[data-console-events][data-state="done"]').waitFor({ timeout: 30_000 });
    const shown = ping.locator("[data-event-id]");
    expect(await shown.count()).toBe(1);
    expect(await shown.getAttribute("data-event-topic")).toBe("Ping");
    expect(await shown.getAttribute("data-event-delivered")).toBe("true");
    expect(await shown.textContent()).toContain(`Ping \u2192 ${receiver.url}`);
    expect(receiver.deliveries.slice(delivered).map((delivery) => delivery.body.id)).toEqual([
      await shown.getAttribute("data-event-id"),
    ]);
    await ping.screenshot({ path: path.join(artifactsDir, "console-ping-events.png") });
  }, 60_000);

  it("shows the field and rule of each problem of an invalid body", async () => {
    const console = await openConsole(page, docs.url, "createCustomer");
    await console
      .locator("[data-console-body]")
      .fill(JSON.stringify({ customer_type: "Robot", name: "No email" }));
    const { status } = await send(console);
    expect(status).toBe(422);
    const problems = console.locator("[data-console-problems] li");
    const shown = await problems.evaluateAll((items) =>
      items.map((item) => ({
        field: item.getAttribute("data-problem-field"),
        rule: item.getAttribute("data-problem-rule"),
        text: item.textContent,
      })),
    );
    expect(shown).toContainEqual(expect.objectContaining({ field: "email", rule: "required" }));
    expect(shown).toContainEqual(expect.objectContaining({ field: "customer_type", rule: "enum" }));
    for (const { field, rule, text } of shown) {
      expect(text).toContain(field);
      expect(text).toContain(rule);
    }
    await console.screenshot({ path: path.join(artifactsDir, "console-invalid-body.png") });
  }, 60_000);

  it("is on the test-mode reference: its overview links every route's console", async () => {
    await page.goto(`${docs.url}${TEST_MODE_PAGE}#/section/routes-and-consoles`);
    await page.getByRole("heading", { name: "Routes and consoles" }).first().waitFor();
    const links = new Map(
      await page
        .locator("table a[href^='#/']")
        .evaluateAll((anchors) =>
          anchors.map((a) => [a.textContent ?? "", a.getAttribute("href") ?? ""] as const),
        ),
    );
    expect([...links.keys()].sort()).toEqual(testModeRoutes.map((r) => r.operationId).sort());
    for (const entry of testModeRoutes) expect(links.get(entry.operationId)).toBe(route(entry));
  }, 60_000);

  it("walks a customer from the test-mode reference, and shows the events it caused", async () => {
    const headers = { "X-API-Key": apiKey, "Content-Type": "application/json" };
    const hook = await fetch(`${sandbox.url}/_sandbox/webhooks`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: receiver.url, topics: ["CustomerStatus"] }),
    }).then((answer) => answer.json() as Promise<{ id: string }>);
    const customer = await fetch(`${sandbox.url}/customers`, {
      method: "POST",
      headers: { ...headers, "IDEMPOTENCY-KEY": crypto.randomUUID() },
      body: JSON.stringify({ customer_type: "Person", email: "walk@example.com" }),
    }).then((answer) => answer.json() as Promise<{ id: string }>);

    const console = await openConsole(page, docs.url, "setCustomerStatus", TEST_MODE_PAGE);
    expect(await console.getByLabel("X-API-Key").inputValue()).toBe(apiKey);
    await console.locator('[data-param-in="path"][data-param-name="id"]').fill(customer.id);
    await console.locator("[data-console-body]").fill(JSON.stringify({ status: "Active" }));
    const { status, body } = await send(console);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ id: customer.id, status: "Active" });

    await console.locator('[data-console-events][data-state="done"]').waitFor({ timeout: 30_000 });
    const shown = await console
      .locator(`[data-event-topic="CustomerStatus"]`)
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-event-id")));
    const logged = await fetch(
      `${sandbox.url}/_sandbox/events?webhook_id=${hook.id}&customer_id=${customer.id}`,
      { headers },
    ).then((answer) => answer.json() as Promise<{ items: { id: string }[] }>);
    // Two steps (SigningsRequired → IdentificationRequired → Active), an event each.
    expect(logged.items).toHaveLength(2);
    expect(shown).toEqual(expect.arrayContaining(logged.items.map((item) => item.id)));
    await console.screenshot({ path: path.join(artifactsDir, "console-test-mode-status.png") });

    const illegal = await openConsole(page, docs.url, "setCustomerStatus", TEST_MODE_PAGE);
    await illegal.locator("[data-console-body]").fill(JSON.stringify({ status: "UserRequired" }));
    expect((await send(illegal)).status).toBe(422);
    expect(await illegal.locator("[data-console-problems] li").first().textContent()).toContain(
      "status",
    );
  }, 90_000);

  it("logs no errors and sends every request to the page's own origin", () => {
    // Chromium logs every answer of 400 or more as a failed load: the invalid body's is expected.
    const expected = "Failed to load resource: the server responded with a status of 422";
    expect(errors.filter((message) => !message.startsWith(expected))).toEqual([]);
    const origin = new URL(docs.url).origin;
    expect(requests.filter((url) => url.includes("/sandbox/")).length).toBeGreaterThan(0);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });
});

describe("the console of the static build", () => {
  it("asks for the sandbox's URL and calls the sandbox there", async () => {
    const tab = await chromiumRun.context.newPage();
    try {
      const console = await openConsole(tab, staticDocs.url, "listWebhooks");
      const url = console.getByLabel("Sandbox URL");
      expect(await url.inputValue()).toBe("http://127.0.0.1:4010");
      await url.fill(sandbox.url);
      const sent = tab.waitForRequest((request) => request.url().includes("/webhooks"));
      const { status, body } = await send(console);
      expect(status).toBe(200);
      const { origin, pathname } = new URL((await sent).url());
      expect(`${origin}${pathname}`).toBe(`${sandbox.url}/webhooks`);
      const key = await console.getByLabel("X-API-Key").inputValue();
      const listed = await fetch(`${sandbox.url}/webhooks`, {
        headers: { "X-API-Key": key },
      }).then((answer) => answer.json());
      expect(JSON.parse(body)).toEqual(listed);
      await console.screenshot({ path: path.join(artifactsDir, "console-static-build.png") });
    } finally {
      await tab.close();
    }
  }, 60_000);
});
