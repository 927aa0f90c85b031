/**
 * Which tools a session lists. By default: every operation of the API, and the test-mode
 * operations an assistant needs for the common flows (the clock, status changes, deposits,
 * events, faults, readiness), which keeps the list within what clients take (Cursor has dropped
 * tools past 40). `--toolsets` picks groups by the spec's tags and `test-mode`, or `all`;
 * `--read-only` keeps the tools that do not write.
 */
import type { ToolDefinition } from "./tool-definition.js";

/** The test-mode operations listed by default, where the sandbox's document has them. */
export const DEFAULT_TEST_MODE_TOOLS: ReadonlySet<string> = new Set([
  "getClock",
  "advanceClock",
  "setCustomerStatus",
  "setIdentificationStatus",
  "setAutorampStatus",
  "setFiatAddressStatus",
  "setAutorampTransactionStatus",
  "simulateDeposit",
  "addWebhook",
  "listEvents",
  "redeliverEvent",
  "armFault",
  "listFaults",
  "disarmFault",
  "getReadiness",
]);

const ALL_TOOLSETS = "all";
const TEST_MODE_TOOLSET = "test-mode";

/** A tag as a toolset's name: `Autoramp transactions` → `autoramp-transactions`. */
const toolsetName = (tag: string): string => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** Every toolset name `--toolsets` takes, in the order of the tools. */
export function toolsetNames(tools: readonly ToolDefinition[]): string[] {
  const tags = tools.filter((tool) => tool.group === "api").map((tool) => toolsetName(tool.tag));
  return [...new Set(tags), TEST_MODE_TOOLSET, ALL_TOOLSETS];
}

interface Selection {
  /** The toolsets named, or undefined for the default. */
  toolsets?: readonly string[] | undefined;
  readOnly?: boolean | undefined;
}

/** Whether the selection lists `tool` (the test mode's still only against a sandbox). */
export function isSelected(tool: ToolDefinition, selection: Selection): boolean {
  if (selection.readOnly && !isRead(tool)) return false;
  const { toolsets } = selection;
  if (toolsets === undefined) {
    return tool.group === "api" || DEFAULT_TEST_MODE_TOOLS.has(tool.name);
  }
  if (toolsets.includes(ALL_TOOLSETS)) return true;
  if (tool.group === "test-mode") return toolsets.includes(TEST_MODE_TOOLSET);
  return toolsets.includes(toolsetName(tool.tag));
}

const isRead = (tool: ToolDefinition): boolean => tool.method === "GET";

/** The toolsets of a `--toolsets` value, or the reason it is not one. */
export function parseToolsets(
  value: string,
  tools: readonly ToolDefinition[],
): { toolsets: string[] } | { error: string } {
  const known = toolsetNames(tools);
  const given = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => toolsetName(name) !== "");
  const named = given.map(toolsetName);
  // Quoted as given: a key pasted there is then taken out of the message, as it is written.
  const unknown = given.filter((name) => !known.includes(toolsetName(name)));
  if (named.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `${unknown.join(", ")} is not a toolset` : "no toolset";
    return { error: `--toolsets: ${what}; it takes a comma-separated list of ${known.join(", ")}` };
  }
  return { toolsets: named };
}
