// An OpenAPI document a user names on the command line (`--spec`, `impact --against`), read and
// refused before anything else reads it: yaml limits how far aliases expand, where the readers
// after it would expand an alias bomb until the process runs out of time or memory.
import { readFile } from "node:fs/promises";
import type { OpenApiDocument } from "@org/payments-spec";
import { parse } from "yaml";
import { yamlProblem } from "./fixtures/yaml-text.js";

/**
 * The OpenAPI document in `file` (YAML or JSON), named in errors as `flag` gives it, each error
 * ending with `fix`.
 */
export async function readOpenApiFile(
  file: string,
  flag: string,
  fix: string,
): Promise<OpenApiDocument> {
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new Error(`cannot read ${flag} ${file}: ${error.message}`);
  });
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new Error(
      `${flag} ${file} is neither YAML nor JSON: ${yamlProblem((error as Error).message)}`,
    );
  }
  const fields = doc as { openapi?: unknown; paths?: unknown } | null;
  if (typeof fields?.openapi !== "string" || typeof fields.paths !== "object") {
    throw new Error(
      `${flag} ${file} is not an OpenAPI document (it needs \`openapi\` and \`paths\`): ${fix}`,
    );
  }
  return doc as OpenApiDocument;
}
