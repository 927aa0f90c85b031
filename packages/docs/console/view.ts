// One operation's console: a form made from the operation (the spec's examples filled in), the
// page's shared settings, and the answer and webhook events of the last send. The markup's data
// attributes are a contract that tests and readers' scripts rely on (see the package README).
import { type Problem, type ReadAnswer, readAnswer } from "./answer.ts";
import { fill, h } from "./dom.ts";
import { EVENTS_PATH, eventsOf, type SandboxEvent, watchEvents } from "./events.ts";
import type { ConsoleOperation, ConsoleParameter } from "./operation.ts";
import { buildRequest, type Entered, fieldKey, headerProblems, randomUuid } from "./request.ts";
import type { PageSettings, SharedSettings } from "./settings.ts";

/** Where requests go: the docs server's same-origin proxy, or the URL the reader gives. */
export interface Target {
  proxied: boolean;
  /** The sandbox's own URL, as shown to the reader. */
  sandboxUrl: string;
  /** The base URL requests are sent to. */
  base(settings: PageSettings): string;
  /** Resolves once requests to that URL have somewhere to go (see in-page-sandbox.ts). */
  ready?(settings: PageSettings): Promise<void>;
  /** A request got no answer: the next `ready` looks at the URL again. */
  unreachable?(settings: PageSettings): void;
  /** Whether the page's own sandbox answers that URL (a static copy with none there). */
  answeredInPage?(settings: PageSettings): boolean;
}

const LOCATIONS = [
  ["path", "Path parameters"],
  ["query", "Query parameters"],
  ["header", "Headers"],
] as const;

export function createConsole(
  operation: ConsoleOperation,
  settings: SharedSettings,
  target: Target,
): HTMLElement {
  const { operationId, method, path } = operation;
  const idPrefix = `pp-console-${operationId}`;
  const titleId = `${idPrefix}-title`;

  const fields = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const idempotency = operation.idempotencyHeader
    ? idempotencyNote(operation.idempotencyHeader)
    : undefined;
  const parameterFieldsets = LOCATIONS.map(([location, legend]) => {
    const parameters = operation.parameters.filter((p) => p.in === location);
    const extra = location === "header" ? idempotency?.row : undefined;
    if (parameters.length === 0 && !extra) return undefined;
    return h(
      "fieldset",
      { class: "pp-console-group", "data-console-group": location },
      h("legend", {}, legend),
      ...parameters.map((parameter) => {
        const control = parameterControl(parameter, `${idPrefix}-${location}-${parameter.name}`);
        fields.set(fieldKey(location, parameter.name), control);
        return fieldRow(parameter, control);
      }),
      extra,
    );
  });

  const body = operation.body ? bodyEditor(operation.body, idPrefix) : undefined;
  const sendButton = h(
    "button",
    { type: "submit", class: "pp-console-send", "data-console-send": true },
    `Send ${method} ${path}`,
  );
  const answer = h("div", {
    class: "pp-console-answer",
    role: "region",
    "aria-label": `Answer to ${method} ${path}`,
    "aria-live": "polite",
    "data-console-response": true,
    "data-state": "idle",
  });
  const events = eventsPanel();

  const form = h(
    "form",
    { class: "pp-console-form", novalidate: true },
    settingsFieldset(operation, settings, target, idPrefix),
    ...parameterFieldsets,
    body?.fieldset,
    h("div", { class: "pp-console-actions" }, sendButton),
  );

  const section = h(
    "section",
    {
      class: "pp-console",
      "aria-labelledby": titleId,
      "data-console-operation": operationId,
      "data-method": method,
      "data-path": path,
    },
    h(
      "header",
      { class: "pp-console-header" },
      h(
        "h3",
        { id: titleId, class: "pp-console-title" },
        "Try it: ",
        h("span", { class: `pp-method pp-method-${method.toLowerCase()}` }, method),
        " ",
        h("code", {}, path),
      ),
      h(
        "p",
        { class: "pp-console-where" },
        h("code", { "data-console-operation-id": true }, operationId),
        target.proxied
          ? ` \u00b7 sends to the sandbox at ${target.sandboxUrl} (through this site)`
          : " \u00b7 sends to the sandbox at the Sandbox URL below",
      ),
    ),
    form,
    answer,
    events.element,
  );

  let sends = 0;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const entered: Entered = {
      values: Object.fromEntries([...fields].map(([key, control]) => [key, control.value])),
      body: body?.textarea.value ?? "",
    };
    const current = ++sends;
    sendButton.disabled = true;
    send(entered, () => current === sends).finally(() => {
      sendButton.disabled = false;
    });
  });

  async function send(entered: Entered, isLatest: () => boolean) {
    const pageSettings = settings.current;
    const base = target.base(pageSettings);
    const request = buildRequest(operation, entered, pageSettings, base, randomUuid);
    const unsendable = headerProblems(request.headers);
    if (unsendable.length > 0) {
      // fetch would throw, and the reader be told that no sandbox answered.
      showNotSent(answer, unsendable);
      events.unavailable("the request was not sent");
      return;
    }
    if (idempotency && request.idempotencyKey) {
      idempotency.shown.textContent = request.idempotencyKey;
    }
    fill(answer, h("p", { class: "pp-console-pending" }, `Sending ${method} ${request.url}\u2026`));
    answer.dataset.state = "sending";
    events.reset();
    // On a static copy, the first send first asks whether a sandbox answers at the URL, which
    // waits for a slow one: the answer says it is sending meanwhile.
    await target.ready?.(pageSettings);
    const inPage = target.answeredInPage?.(pageSettings) === true;

    const readEvents = async () => {
      const response = await fetch(`${base.replace(/\/+$/, "")}${EVENTS_PATH}`, {
        headers: { "X-API-Key": pageSettings.apiKey, Accept: "application/json" },
        cache: "no-store",
      });
      if (!response.ok) throw new Error(`GET ${EVENTS_PATH} answered ${response.status}`);
      return eventsOf(await response.json());
    };
    const before = await readEvents().then(
      (list) => new Set(list.map((item) => item.id)),
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );

    const started = performance.now();
    let read: ReadAnswer;
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined && { body: request.body }),
        cache: "no-store",
        credentials: "omit",
      });
      read = await readAnswer(response);
    } catch (error) {
      target.unreachable?.(pageSettings);
      if (!isLatest()) return;
      showUnreachable(answer, request.url, target, error);
      events.unavailable("no answer, so no events to show");
      return;
    }
    if (!isLatest()) return;
    showAnswer(answer, request.url, read, performance.now() - started, inPage);
    section.dataset.status = String(read.status);

    if (before instanceof Error) {
      events.unavailable(`the sandbox's event log could not be read (${before.message})`);
      return;
    }
    events.watch(() => readEvents(), before, isLatest);
  }

  return section;
}

function settingsFieldset(
  operation: ConsoleOperation,
  settings: SharedSettings,
  target: Target,
  idPrefix: string,
) {
  const input = (
    name: keyof PageSettings,
    label: string,
    attributes: Record<string, string | boolean>,
    note?: string,
  ) => {
    const id = `${idPrefix}-setting-${name}`;
    const control = h("input", {
      id,
      name,
      autocomplete: "off",
      spellcheck: "false",
      "data-console-setting": name,
      ...attributes,
    });
    control.value = settings.current[name];
    control.addEventListener("input", () => settings.set(name, control.value));
    // Another console on the page changed it: show the same value here.
    settings.subscribe((values) => {
      if (control.value !== values[name]) control.value = values[name];
    });
    return h(
      "div",
      { class: "pp-console-field" },
      h("label", { for: id }, label),
      control,
      note && h("small", {}, note),
    );
  };
  return h(
    "fieldset",
    { class: "pp-console-group pp-console-settings", "data-console-group": "settings" },
    h("legend", {}, "Sandbox access (shared by every console on this page)"),
    !target.proxied &&
      input(
        "sandboxUrl",
        "Sandbox URL",
        { type: "url", placeholder: target.sandboxUrl },
        "Where a sandbox runs (npm start serves one); it must answer CORS, as the mock does.",
      ),
    input("apiKey", "X-API-Key", { type: "text", required: true }),
    operation.subPartnerHeader
      ? input(
          "subPartnerId",
          operation.subPartnerHeader,
          { type: "text", placeholder: "optional: a sub-partner UUID" },
          "Sent when filled in.",
        )
      : h(
          "p",
          { class: "pp-console-note", "data-console-setting-absent": "subPartnerId" },
          "X-SUB-PARTNER-ID: this operation does not take it.",
        ),
  );
}

function idempotencyNote(header: string) {
  const shown = h("output", { "data-console-idempotency-key": true }, "not sent yet");
  return {
    row: h(
      "div",
      { class: "pp-console-field" },
      h("span", { class: "pp-console-label" }, header),
      h("p", { class: "pp-console-note" }, "A new UUID on every send; last sent: ", shown),
    ),
    shown,
  };
}

function parameterControl(parameter: ConsoleParameter, id: string) {
  const common = {
    id,
    name: `${parameter.in}:${parameter.name}`,
    "data-param-in": parameter.in,
    "data-param-name": parameter.name,
    required: parameter.required,
  };
  const choices =
    parameter.type === "boolean"
      ? ["true", "false"]
      : parameter.type === "array"
        ? undefined
        : parameter.enum;
  if (choices) {
    const select = h(
      "select",
      common,
      !parameter.required && h("option", { value: "" }, "(not sent)"),
      ...choices.map((choice) => h("option", { value: choice }, choice)),
    );
    select.value = parameter.value;
    return select;
  }
  const input = h("input", {
    ...common,
    type: "text",
    spellcheck: "false",
    autocomplete: "off",
    inputmode: parameter.type === "integer" || parameter.type === "number" ? "decimal" : undefined,
    placeholder: parameter.placeholder,
  });
  input.value = parameter.value;
  return input;
}

function fieldRow(parameter: ConsoleParameter, control: HTMLElement) {
  const kind = [
    parameter.type === "array" ? "one or more, comma-separated" : parameter.type,
    parameter.format,
    parameter.enum && parameter.type === "array" ? `each one of ${parameter.enum.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return h(
    "div",
    { class: "pp-console-field" },
    h(
      "label",
      { for: control.id },
      h("code", {}, parameter.name),
      " ",
      h("span", { class: "pp-console-kind" }, kind),
      parameter.required ? h("span", { class: "pp-console-required" }, " required") : "",
    ),
    control,
  );
}

function bodyEditor(body: NonNullable<ConsoleOperation["body"]>, idPrefix: string) {
  const id = `${idPrefix}-body`;
  const textarea = h("textarea", {
    id,
    name: "body",
    rows: 10,
    spellcheck: "false",
    autocomplete: "off",
    "data-console-body": true,
  });
  let example = body.examples[0];
  const restore = () => {
    textarea.value = example === undefined ? "" : JSON.stringify(example.value, null, 2);
  };
  restore();
  const picker =
    body.examples.length > 1
      ? h(
          "select",
          { id: `${id}-example`, "data-console-example": true },
          ...body.examples.map((item) => h("option", { value: item.name }, item.summary)),
        )
      : undefined;
  picker?.addEventListener("change", () => {
    example = body.examples.find((item) => item.name === picker.value) ?? example;
    restore();
  });
  const reset = h("button", { type: "button", class: "pp-console-link" }, "Back to the example");
  reset.addEventListener("click", restore);
  const fieldset = h(
    "fieldset",
    { class: "pp-console-group", "data-console-group": "body" },
    h("legend", {}, `Body (application/json)${body.required ? "" : ", optional"}`),
    picker &&
      h("div", { class: "pp-console-field" }, h("label", { for: picker.id }, "Example"), picker),
    h(
      "div",
      { class: "pp-console-field" },
      h("label", { for: id }, "Request body (JSON, editable)"),
      textarea,
      reset,
    ),
  );
  return { fieldset, textarea };
}

function showAnswer(
  element: HTMLElement,
  url: string,
  answer: ReadAnswer,
  elapsedMs: number,
  inPage: boolean,
) {
  const ok = answer.status >= 200 && answer.status < 300;
  element.dataset.state = "done";
  element.dataset.status = String(answer.status);
  if (inPage) element.dataset.answeredBy = "in-page";
  else delete element.dataset.answeredBy;
  fill(
    element,
    h(
      "p",
      { class: `pp-console-status ${ok ? "pp-ok" : "pp-failed"}`, "data-console-status": true },
      h("strong", {}, String(answer.status)),
      answer.statusText ? ` ${answer.statusText}` : "",
      ` \u00b7 ${Math.round(elapsedMs)} ms`,
    ),
    h(
      "p",
      { class: "pp-console-note" },
      "from ",
      h("code", {}, url),
      inPage ? ", answered by the sandbox in this page (none answers at that URL)" : "",
    ),
    answer.note && h("p", { class: "pp-console-note", "data-console-note": true }, answer.note),
    (answer.problems.length > 0 || (!ok && (answer.title || answer.detail))) && problemList(answer),
    h(
      "details",
      { class: "pp-console-headers", open: true, "data-console-headers": true },
      h("summary", {}, `Headers (${answer.headers.length})`),
      h(
        "dl",
        {},
        ...answer.headers.flatMap(([name, value]) => [
          h("dt", {}, name),
          h("dd", { "data-header": name }, value),
        ]),
      ),
    ),
    h("p", { class: "pp-console-label" }, "Body"),
    h("pre", { class: "pp-console-body", "data-console-response-body": true }, answer.body),
  );
}

function problemList(answer: ReadAnswer) {
  return h(
    "div",
    { class: "pp-console-problems", "data-console-problems": true },
    h(
      "p",
      {},
      h("strong", {}, answer.title ?? "Problem"),
      answer.detail ? `: ${answer.detail}` : "",
    ),
    answer.problems.length > 0 &&
      h("ul", {}, ...answer.problems.map((problem) => problemItem(problem))),
  );
}

function problemItem(problem: Problem) {
  return h(
    "li",
    {
      "data-problem-location": problem.location,
      "data-problem-field": problem.field,
      "data-problem-rule": problem.rule,
    },
    h("code", {}, [problem.location, problem.field].filter(Boolean).join(" ")),
    " \u2014 ",
    h("strong", {}, problem.rule),
    problem.message ? `: ${problem.message}` : "",
  );
}

function showNotSent(element: HTMLElement, problems: Problem[]) {
  element.dataset.state = "failed";
  delete element.dataset.status;
  delete element.dataset.answeredBy;
  fill(
    element,
    problemList({
      status: 0,
      statusText: "",
      headers: [],
      body: "",
      title: "Not sent",
      detail: "the browser cannot send these headers as they are",
      problems,
    }),
  );
}

function showUnreachable(element: HTMLElement, url: string, target: Target, error: unknown) {
  element.dataset.state = "failed";
  delete element.dataset.status;
  delete element.dataset.answeredBy;
  const reason = error instanceof Error ? error.message : String(error);
  fill(
    element,
    h(
      "p",
      { class: "pp-console-status pp-failed", "data-console-status": true },
      h("strong", {}, "No answer"),
      ` from ${url} (${reason}).`,
    ),
    h(
      "p",
      { class: "pp-console-note" },
      target.proxied
        ? "The docs server could not be reached: is it still running?"
        : `Is a sandbox running there (npm start serves one at ${target.sandboxUrl})? This page's Content-Security-Policy lets it call only its own site and 127.0.0.1 or localhost. The next send looks again, and where nothing answers, a sandbox in this page does.`,
    ),
  );
}

function eventsPanel() {
  const status = h("p", { class: "pp-console-note", "data-console-events-status": true });
  const list = h("ol", { class: "pp-console-event-list" });
  const again = h(
    "button",
    { type: "button", class: "pp-console-link", hidden: true },
    "Check again",
  );
  const element = h(
    "div",
    {
      class: "pp-console-events",
      role: "region",
      "aria-label": "Webhook events this request caused",
      "data-console-events": true,
      "data-state": "idle",
    },
    h("h4", {}, "Webhook events"),
    status,
    list,
    again,
  );
  status.textContent = "Send the request to see the webhook events it causes.";
  let recheck: (() => void) | undefined;
  again.addEventListener("click", () => recheck?.());

  const show = (found: SandboxEvent[], done: boolean) => {
    element.dataset.state = done ? "done" : "watching";
    element.dataset.count = String(found.length);
    status.textContent = done
      ? found.length === 0
        ? "The sandbox recorded no webhook event since this request. (It sends events to the enabled webhooks subscribed to their topic; see GET /webhooks.)"
        : `${found.length} webhook event${found.length === 1 ? "" : "s"} since this request, oldest first:`
      : "Watching the sandbox's event log\u2026";
    fill(list, ...found.map(eventItem));
  };

  return {
    element,
    reset() {
      recheck = undefined;
      again.hidden = true;
      element.dataset.state = "idle";
      delete element.dataset.count;
      status.textContent = "Waiting for the answer\u2026";
      fill(list);
    },
    unavailable(reason: string) {
      element.dataset.state = "unavailable";
      status.textContent = `No events to show: ${reason}.`;
    },
    watch(
      read: () => Promise<SandboxEvent[]>,
      before: ReadonlySet<string>,
      isLatest: () => boolean,
    ) {
      const run = () => {
        again.hidden = true;
        watchEvents({
          read,
          before,
          onUpdate: (found) => isLatest() && show(found, false),
        })
          .then((found) => isLatest() && show(found, true))
          .catch((error: unknown) => {
            if (!isLatest()) return;
            element.dataset.state = "unavailable";
            status.textContent = `The sandbox's event log could not be read (${error instanceof Error ? error.message : error}).`;
          })
          .finally(() => {
            if (isLatest()) again.hidden = false;
          });
      };
      recheck = run;
      run();
    },
  };
}

function eventItem(event: SandboxEvent) {
  const outcome = event.delivered
    ? `delivered${event.status_code ? ` (HTTP ${event.status_code})` : ""}`
    : `not delivered${event.failure_reason ? `: ${event.failure_reason}` : ""}`;
  return h(
    "li",
    {
      "data-event-id": event.id,
      "data-event-topic": event.topic,
      "data-event-delivered": String(event.delivered === true),
    },
    h("strong", {}, event.topic),
    event.url ? ` \u2192 ${event.url}` : "",
    ` \u00b7 ${outcome}`,
    h(
      "details",
      {},
      h("summary", {}, "Payload"),
      h("pre", { class: "pp-console-body" }, JSON.stringify(event.payload, null, 2)),
    ),
  );
}
