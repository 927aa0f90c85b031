// The site's Test mode part in the two Redoc pages: the test-mode document, made one file as the
// sandbox serves it (loadBundledSpec), with a curl sample on every route and an overview of the
// guides and the routes' consoles; and the link to that part from the API reference's overview.
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import { curlSample } from "./code-samples.ts";
import { operationRoute } from "./console-section.ts";
import { GUIDES, guidePage, slugOf } from "./guides.ts";
import { diagramFile } from "./lifecycle-diagrams.ts";
import { TEST_MODE_PAGE } from "./pages.ts";
import { READINESS_PAGE } from "./readiness-page.ts";
import { LIFECYCLES, type Lifecycle } from "./sandbox-data.ts";
import { controlSample } from "./test-mode-samples.ts";

const GUIDES_DIR = "guides";
const TEST_MODE_SECTION_TITLE = "Test mode";
const GUIDES_SECTION_TITLE = "Guides";
const ROUTES_SECTION_TITLE = "Routes and consoles";

/**
 * A copy of the bundled test-mode document with a curl sample on every route, and an overview
 * that ends with the guides and a link to each route's console.
 */
export function testModeBuildCopy(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  for (const entry of listOperations(copy)) {
    const typescript = controlSample(copy, entry);
    entry.operation["x-codeSamples"] = [
      ...(typescript ? [{ lang: "TypeScript", label: "TypeScript", source: typescript }] : []),
      { lang: "curl", label: "curl", source: curlSample(copy, entry) },
    ];
    const lifecycle = lifecycleOfStatusRoute(entry.path);
    if (lifecycle) {
      entry.operation.description = `${String(entry.operation.description ?? "").trimEnd()}\n\n${lifecyclePicture(lifecycle)}\n`;
    }
  }
  const guides = GUIDES.filter((guide) => guide.part === "Test mode").map(
    (guide) => `- [${guide.title}](${guidePage(guide.slug)}): ${guide.summary}`,
  );
  const rows = listOperations(copy).map(
    ({ method, path: routePath, operationId, tag }) =>
      `| \`${method.toUpperCase()} ${routePath}\` | [${operationId}](${operationRoute(tag, operationId)}) |`,
  );
  const sections = [
    `## ${GUIDES_SECTION_TITLE}`,
    "",
    "Each guide runs as printed (CI runs every command and program on them against a sandbox).",
    "",
    ...guides,
    "",
    "The [API reference](index.html) describes the API the sandbox answers. The",
    `[readiness page](${READINESS_PAGE}) reads \`GET /_sandbox/readiness\` for the consoles' key: the`,
    "checklist of the readiness profile, and the API's operations by the statuses they answered.",
    "",
    `## ${ROUTES_SECTION_TITLE}`,
    "",
    "Every route's page has a console below its curl sample that sends the request to the",
    "sandbox (served by `npm start`, through this site; a copy of the site on a static host asks",
    "for the sandbox's URL, and with none there runs one in your browser), shows the answer, and",
    "lists the webhook events it caused from the sandbox's event log.",
    "",
    "| Route | Console |",
    "| --- | --- |",
    ...rows,
  ].join("\n");
  copy.info.description = `${String(copy.info.description ?? "").trimEnd()}\n\n${sections}\n`;
  return copy;
}

/** The lifecycle a status route (`/_sandbox/customers/{id}/status`) walks, if `path` is one. */
export function lifecycleOfStatusRoute(path: string): Lifecycle | undefined {
  const route = /^\/_sandbox\/(.+)\/\{id\}\/status$/.exec(path)?.[1];
  return LIFECYCLES.find((lifecycle) => lifecycle.route === route);
}

/** The lifecycle's diagram (drawn at build, in guides/) and a link to its part of the guide. */
function lifecyclePicture(lifecycle: Lifecycle) {
  return [
    `![The ${lifecycle.resource} lifecycle: states ${lifecycle.states.join(", ")}](${GUIDES_DIR}/${diagramFile(lifecycle)})`,
    "",
    `Each transition, its cause and its timing: [the ${lifecycle.resource} lifecycle](${guidePage("lifecycles")}#${slugOf(lifecycle.resource)}).`,
  ].join("\n");
}

/** A copy of the API's document whose overview ends with the way to the Test mode part. */
export function withTestModeSection(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const guides = GUIDES.filter((guide) => guide.part === "Test mode").map(
    (guide) => `- [${guide.title}](${guidePage(guide.slug)})`,
  );
  const section = [
    `## ${TEST_MODE_SECTION_TITLE}`,
    "",
    "The sandbox (`npm start`, or `npx @org/payments-mock --stateful`) is this API's offline test",
    "mode: it answers every operation from its own data, moves resources along their",
    "lifecycles on a clock of its own, simulates deposits and delivers webhooks. Its own routes",
    `under \`/_sandbox/\` are described, each with a console, in the [test-mode reference](${TEST_MODE_PAGE});`,
    "the guides walk through it, every command run by CI:",
    "",
    ...guides,
    `- [All guides, the mock and the proxy](guides/index.html)`,
  ].join("\n");
  copy.info.description = `${String(copy.info.description ?? "").trimEnd()}\n\n${section}\n`;
  return copy;
}
