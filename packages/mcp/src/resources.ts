/**
 * The two OpenAPI documents as MCP resources: the API's, and the sandbox's test mode. The build
 * copies both beside the server's code, so they are the documents its tools were made from.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DOCUMENTS = [
  {
    uri: "payments://openapi/partner-payments.yaml",
    name: "partner-payments.yaml",
    title: "Partner payments API: OpenAPI 3.1 document",
    description:
      "The API's description: every operation, parameter and schema the API tools are made from.",
  },
  {
    uri: "payments://openapi/test-mode.yaml",
    name: "test-mode.yaml",
    title: "Sandbox test mode: OpenAPI 3.1 document",
    description:
      "The sandbox's own routes under /_sandbox/ (clock, simulations, events, reset), which the test-mode tools call.",
  },
] as const;

const fileOf = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

export function documentResources() {
  return DOCUMENTS.filter((document) => existsSync(fileOf(document.name))).map((document) => ({
    ...document,
    mimeType: "application/yaml",
  }));
}

export function readDocument(uri: string) {
  const document = DOCUMENTS.find((candidate) => candidate.uri === uri);
  if (!document || !existsSync(fileOf(document.name))) return undefined;
  return { uri, mimeType: "application/yaml", text: readFileSync(fileOf(document.name), "utf8") };
}
