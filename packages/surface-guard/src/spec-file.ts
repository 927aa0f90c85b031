// A document the guard compares, read as its author left it. One that is not there, not YAML, not
// OpenAPI 3.1 or that has a `$ref` to nothing is refused, naming the file (and the line the parser
// gives), the rule and the fix: read as it is, it would stop the command with a stack trace, or
// compare as a document that removed everything.
import { loadBundledSpec, loadSpec, type OpenApiDocument, resolveRef } from "@org/payments-spec";

/** A document that cannot be compared: the message says which, why, and what to do. */
export class SpecFileError extends Error {}

/**
 * The OpenAPI 3.1 document at `file` (`name` is how the message shows it); with `bundled`, with the
 * components its `$ref`s name in other files copied in (as the test-mode document is read).
 */
export function readSpecFile(file: string, name: string, bundled = false): OpenApiDocument {
  const doc = parsed(file, name, () => loadSpec(file));
  if (doc === null || doc === undefined) {
    throw new SpecFileError(`${name}: the file is empty [spec-not-openapi]: write the document`);
  }
  const version = (doc as { openapi?: unknown }).openapi;
  if (
    typeof version !== "string" ||
    !version.startsWith("3.1.") ||
    typeof doc.paths !== "object" ||
    doc.paths === null
  ) {
    throw new SpecFileError(
      `${name}: not an OpenAPI 3.1 document (openapi: ${JSON.stringify(version ?? null)}) [spec-not-openapi]: it starts with \`openapi: 3.1.0\`, and has \`paths\``,
    );
  }
  const missing = unresolvedRef(doc);
  if (missing !== undefined) {
    throw new SpecFileError(
      `${name}: ${missing.at}: $ref ${missing.ref} names nothing in the document [spec-ref-unresolved]: point it at a component the document has, or add that component`,
    );
  }
  if (!bundled) return doc;
  return parsed(file, `${name} (a document its $refs name)`, () => loadBundledSpec(file));
}

function parsed(file: string, name: string, load: () => OpenApiDocument): OpenApiDocument {
  try {
    return load();
  } catch (error) {
    const {
      code,
      name: kind,
      message,
      linePos,
    } = error as NodeJS.ErrnoException & {
      linePos?: { line: number; col: number }[];
    };
    if (code === "ENOENT") {
      throw new SpecFileError(
        `${name}: no such file (${file}) [spec-file-missing]: give the path of a YAML document; for a git ref, write its version to a file first (git show <ref>:openapi/partner-payments.yaml > base.yaml)`,
      );
    }
    if (code === "EISDIR") {
      throw new SpecFileError(
        `${name}: a directory, not a document [spec-file-missing]: give the path of the YAML file in it`,
      );
    }
    if (kind === "YAMLParseError") {
      const at = linePos?.[0] ? `:${linePos[0].line}:${linePos[0].col}` : "";
      // The parser's first line says what is wrong and where; the rest quotes the file.
      // (@org/payments-engine's yamlProblem does as much, but plain node cannot load that package.)
      const problem = message.split("\n")[0]?.replace(/:$/, "");
      throw new SpecFileError(
        `${name}${at}: not valid YAML: ${problem} [spec-yaml-invalid]: fix the YAML there (indent with spaces, each key once, every quote closed)`,
      );
    }
    throw new SpecFileError(`${name}: cannot be read: ${message} [spec-file-unreadable]`);
  }
}

/** The first local `$ref` in `doc` that names nothing, and where it is (a JSON pointer). */
function unresolvedRef(doc: OpenApiDocument): { ref: string; at: string } | undefined {
  const stack: [unknown, string][] = [[doc, "#"]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, at] = next;
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
        try {
          resolveRef(doc, value);
        } catch {
          return { ref: value, at };
        }
      } else {
        stack.push([value, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
      }
    }
  }
  return undefined;
}
