// The overview's "Try it in the sandbox" section, added to the build copy's description: what
// the consoles do and a link to each operation's console. It describes this site and the
// sandbox, not the API, so it never goes into the hand-authored spec.
import type { OpenApiDocument } from "@org/payments-spec";
import { listOperations } from "@org/payments-spec";

const CONSOLE_SECTION_TITLE = "Try it in the sandbox";

/** Redoc's route of an operation's page: `#/<tag as a slug>/<operationid>`. */
export function operationRoute(tag: string | undefined, operationId: string) {
  const slug = (tag ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return `#/${slug}/${operationId.toLowerCase()}`;
}

/** A copy of `doc` whose description ends with the console section. */
export function withConsoleSection(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const rows = listOperations(copy).map(
    ({ method, path, operationId, tag }) =>
      `| \`${method.toUpperCase()} ${path}\` | [${operationId}](${operationRoute(tag, operationId)}) |`,
  );
  const section = [
    `## ${CONSOLE_SECTION_TITLE}`,
    "",
    "Every operation's page has a console below its samples that sends the request to the",
    "sandbox, the stateful mock of this API (`npm start` runs one). Served by `npm start`, the",
    "page sends to the sandbox through this site; a copy of the site on a static host asks for",
    "the sandbox's URL, and when no sandbox answers there, answers from a sandbox running in your",
    "browser (a note at the foot of the page says so). The real service is never called.",
    "",
    "An AI assistant can drive the sandbox too: [`@org/payments-mcp`](https://www.npmjs.com/package/@org/payments-mcp)",
    "serves every operation, and the test mode, as MCP tools (setup for Claude Code, Claude",
    "Desktop, Cursor and VS Code in its README, `packages/mcp/README.md`).",
    "",
    "- The fields come from this reference, with its examples filled in; edit them freely.",
    "- `X-API-Key` and `X-SUB-PARTNER-ID` are entered once for the page. Every send gets a new",
    "  `IDEMPOTENCY-KEY`.",
    "- The answer shows its status, headers and body; for a refused request, each problem's",
    "  field and rule (the sandbox's error format, not the API's, which is not specified).",
    "- Below the answer: the webhook events the request caused, from the sandbox's event log.",
    "",
    "| Request | Console |",
    "| --- | --- |",
    ...rows,
  ].join("\n");
  copy.info.description = `${String(copy.info.description ?? "").trimEnd()}\n\n${section}\n`;
  return copy;
}
