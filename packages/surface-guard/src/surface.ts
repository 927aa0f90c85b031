// Compares what packages export in two versions, as the TypeScript compiler sees the declarations:
// both versions' sources go into one program, and each export of the base version is checked
// against its namesake in the head version for presence and assignability. This is the only module
// of the guard that uses the compiler's API, and it needs a compiler that has one (TypeScript 5.9
// or 6; TypeScript 7 has none).
import path from "node:path";
import ts from "typescript-api";

/** How an export is judged. */
export type ExportRole =
  /** A type clients build and send: it must accept every value it accepted. */
  | "request"
  /** A type clients receive: it must admit no value it did not admit. */
  | "response"
  /** A type on both sides, or of unknown use: it must admit exactly the values it did. */
  | "both"
  /** An object type whose keys clients name (`paths`): no key may go. */
  | "keys"
  /** An interface of resources, each an object of methods clients call (the facade). */
  | "facade"
  /** An interface of methods clients call (the sandbox's typed controls). */
  | "methods"
  /** Covered by the other exports (`components`, `operations`): only its presence counts. */
  | "presence";

export type SurfaceVersion = {
  /** Virtual source files by absolute path: they exist only for the compiler. */
  files: Map<string, string>;
  /** Each package's entry file, by package name; imports of a package name resolve to it. */
  entries: Record<string, string>;
};

export type SurfaceFinding = {
  package: string;
  /** The export's name, with the member it concerns: `paths["/customers"]`, `PaymentsResources.customers.list`. */
  name: string;
  what: "export" | "path" | "resource" | "method" | "arguments" | "result" | "type" | "value";
  change: "removed" | "added" | "narrowed" | "widened" | "changed";
  /** The role the export was judged in (for `type`). */
  role?: ExportRole;
};

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

/**
 * Every difference between the exports of `base` and `head`, for each package both name; `roleOf`
 * says how an export is judged. Only exports declared in a generated file (a path containing
 * `/generated/`) are compared by type: the hand-written ones are the same code in both versions.
 */
export function compareSurfaces(
  base: SurfaceVersion,
  head: SurfaceVersion,
  roleOf: (pkg: string, name: string) => ExportRole,
): SurfaceFinding[] {
  const program = createProgram([base, head]);
  const checker = program.getTypeChecker();
  const findings: SurfaceFinding[] = [];
  for (const [pkg, baseEntry] of Object.entries(base.entries)) {
    const headEntry = head.entries[pkg];
    if (headEntry === undefined) continue;
    const before = exportsOf(program, checker, baseEntry);
    const after = exportsOf(program, checker, headEntry);
    const found = (finding: Omit<SurfaceFinding, "package">) =>
      findings.push({ package: pkg, ...finding });
    for (const [name, symbol] of before) {
      const other = after.get(name);
      if (other === undefined) {
        found({ name, what: "export", change: "removed" });
        continue;
      }
      if (!isGenerated(symbol)) continue;
      const role = roleOf(pkg, name);
      if (symbol.flags & ts.SymbolFlags.Value) {
        const change = compareTypes(
          checker,
          checker.getTypeOfSymbol(symbol),
          checker.getTypeOfSymbol(other),
        );
        if (change !== "same") found({ name, what: "value", change: "changed" });
        continue;
      }
      const baseType = checker.getDeclaredTypeOfSymbol(symbol);
      const headType = checker.getDeclaredTypeOfSymbol(other);
      if (role === "keys") compareKeys(checker, baseType, headType, name, found);
      else if (role === "facade") compareFacade(checker, baseType, headType, name, found);
      else if (role === "methods") compareMethods(checker, baseType, headType, name, found);
      else if (role !== "presence") {
        const change = compareTypes(checker, baseType, headType);
        if (change !== "same") found({ name, what: "type", change, role });
      }
    }
    for (const name of after.keys()) {
      if (!before.has(name)) found({ name, what: "export", change: "added" });
    }
  }
  return findings;
}

/** One program over every version's files, each version's package imports resolved to its own entries. */
function createProgram(versions: SurfaceVersion[]): ts.Program {
  const files = new Map(versions.flatMap((version) => [...version.files]));
  const host = ts.createCompilerHost(OPTIONS, true);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  const directories = new Set(
    [...files.keys()].flatMap((file) => {
      const parents: string[] = [];
      for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
        parents.push(dir);
      }
      return parents;
    }),
  );
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.directoryExists = (dir) =>
    directories.has(dir) || (directoryExists?.call(host, dir) ?? false);
  host.readFile = (file) => files.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = files.get(file) ?? readFile.call(host, file);
    return text === undefined
      ? getSourceFile.call(host, file, language, onError, create)
      : parsedSourceFile(file, text, language, create);
  };
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, options) => {
    const version = versions.find((candidate) => candidate.files.has(containingFile));
    return literals.map((literal) => {
      const entry = version?.entries[literal.text];
      if (entry !== undefined) {
        return {
          resolvedModule: { resolvedFileName: entry, extension: ts.Extension.Ts },
        };
      }
      return ts.resolveModuleName(
        literal.text,
        containingFile,
        options,
        host,
        undefined,
        redirected,
      );
    });
  };
  const roots = versions.flatMap((version) => Object.values(version.entries));
  return ts.createProgram({ rootNames: roots, options: OPTIONS, host });
}

/**
 * Each file's last parse, with the text and settings it was parsed from. Parsing and binding are
 * most of a program's cost, and most files recur unchanged in every program (the compiler's
 * libraries, the packages' hand-written sources, what an unchanged spec generates), so a file is
 * parsed again only when its text or the settings differ. The compiler's language service shares
 * parsed files between programs in the same way (its document registry): what a checker learns
 * about a file it keeps to itself.
 */
const parsed = new Map<string, { text: string; settings: string; file: ts.SourceFile }>();

function parsedSourceFile(
  fileName: string,
  text: string,
  language: ts.ScriptTarget | ts.CreateSourceFileOptions,
  fresh = false,
): ts.SourceFile {
  const options = typeof language === "object" ? language : { languageVersion: language };
  const settings = `${options.languageVersion} ${options.impliedNodeFormat} ${options.jsDocParsingMode}`;
  const last = parsed.get(fileName);
  if (!fresh && last?.text === text && last.settings === settings) return last.file;
  const file = ts.createSourceFile(fileName, text, language, true);
  parsed.set(fileName, { text, settings, file });
  return file;
}

function exportsOf(
  program: ts.Program,
  checker: ts.TypeChecker,
  entry: string,
): Map<string, ts.Symbol> {
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`package surface: cannot read the exports of ${entry}`);
  return new Map(
    checker.getExportsOfModule(module).map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return [symbol.name, target];
    }),
  );
}

function isGenerated(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((declaration) =>
    declaration.getSourceFile().fileName.includes("/generated/"),
  );
}

/** What `head` does to the values `base` admits: the same, more (widened), fewer, or other ones. */
function compareTypes(
  checker: ts.TypeChecker,
  base: ts.Type,
  head: ts.Type,
): "same" | "narrowed" | "widened" | "changed" {
  const keepsOld = checker.isTypeAssignableTo(base, head);
  const addsNone = checker.isTypeAssignableTo(head, base);
  if (keepsOld && addsNone) return "same";
  if (keepsOld) return "widened";
  if (addsNone) return "narrowed";
  return "changed";
}

type Found = (finding: Omit<SurfaceFinding, "package">) => void;

function compareKeys(
  checker: ts.TypeChecker,
  base: ts.Type,
  head: ts.Type,
  name: string,
  found: Found,
): void {
  const after = new Set(checker.getPropertiesOfType(head).map((property) => property.name));
  const before = new Set(checker.getPropertiesOfType(base).map((property) => property.name));
  for (const key of before) {
    if (!after.has(key))
      found({ name: `${name}[${JSON.stringify(key)}]`, what: "path", change: "removed" });
  }
  for (const key of after) {
    if (!before.has(key))
      found({ name: `${name}[${JSON.stringify(key)}]`, what: "path", change: "added" });
  }
}

/** A type's properties by name, each with its type. */
function membersOf(checker: ts.TypeChecker, type: ts.Type): Map<string, ts.Type> {
  return new Map(
    checker
      .getPropertiesOfType(type)
      .map((symbol) => [symbol.name, checker.getTypeOfSymbol(symbol)] as const),
  );
}

/**
 * The facade: every resource and method must stay, each method must accept every argument list it
 * accepted (parameters compared one by one, since TypeScript checks method parameters bivariantly)
 * and resolve to nothing it could not resolve to before.
 */
function compareFacade(
  checker: ts.TypeChecker,
  base: ts.Type,
  head: ts.Type,
  name: string,
  found: Found,
): void {
  const baseResources = membersOf(checker, base);
  const headResources = membersOf(checker, head);
  for (const [resource, baseResource] of baseResources) {
    const at = `${name}.${resource}`;
    const headResource = headResources.get(resource);
    if (headResource === undefined) {
      found({ name: at, what: "resource", change: "removed" });
      continue;
    }
    compareMethods(checker, baseResource, headResource, at, found);
  }
  for (const resource of headResources.keys()) {
    if (!baseResources.has(resource)) {
      found({ name: `${name}.${resource}`, what: "resource", change: "added" });
    }
  }
}

/** Each method of `base` is still in `head`, accepting what it accepted and resolving to no more. */
function compareMethods(
  checker: ts.TypeChecker,
  base: ts.Type,
  head: ts.Type,
  name: string,
  found: Found,
): void {
  const baseMethods = membersOf(checker, base);
  const headMethods = membersOf(checker, head);
  for (const [method, baseMethod] of baseMethods) {
    const headMethod = headMethods.get(method);
    if (headMethod === undefined) {
      found({ name: `${name}.${method}`, what: "method", change: "removed" });
      continue;
    }
    compareMethod(checker, baseMethod, headMethod, `${name}.${method}`, found);
  }
  for (const method of headMethods.keys()) {
    if (!baseMethods.has(method))
      found({ name: `${name}.${method}`, what: "method", change: "added" });
  }
}

function compareMethod(
  checker: ts.TypeChecker,
  base: ts.Type,
  head: ts.Type,
  name: string,
  found: Found,
): void {
  const [before] = checker.getSignaturesOfType(base, ts.SignatureKind.Call);
  const [after] = checker.getSignaturesOfType(head, ts.SignatureKind.Call);
  if (!before || !after) return;
  const required = (signature: ts.Signature) =>
    signature.parameters.filter((parameter) => {
      const declaration = parameter.valueDeclaration;
      return !(
        declaration &&
        ts.isParameter(declaration) &&
        (declaration.questionToken || declaration.initializer)
      );
    }).length;
  const accepts = before.parameters.every((parameter, i) => {
    const other = after.parameters[i];
    return (
      other !== undefined &&
      checker.isTypeAssignableTo(checker.getTypeOfSymbol(parameter), checker.getTypeOfSymbol(other))
    );
  });
  if (!accepts || required(after) > required(before)) {
    found({ name, what: "arguments", change: "narrowed" });
  }
  const result = compareTypes(
    checker,
    checker.getReturnTypeOfSignature(before),
    checker.getReturnTypeOfSignature(after),
  );
  if (result === "widened" || result === "changed") found({ name, what: "result", change: result });
}
