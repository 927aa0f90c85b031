// Prism's request validation (`validateInput` of @stoplight/prism-http 5.16.0's
// dist/validator/index.js), step for step, with the work that depends only on the operation done
// once: Prism compiles the operation's path template into a new function for every request, and
// matches the request's media type against the operation's afresh. The checks themselves are
// Prism's own validators, run in Prism's order, so the diagnostics are Prism's.

import {
  parseMIMEHeader,
  pathParameters,
  type ValidateInput,
  validatePath,
  validateQuery,
  wildcardMediaTypeMatch,
} from "../prism/index.js";
import { type BodyValidator, rememberedBodyValidation } from "./body-validation.js";
import { type HeaderValidator, rememberedHeaderValidation } from "./header-validation.js";

type Options = Parameters<ValidateInput>[0];
type Result = ReturnType<ValidateInput>;
type Diagnostic = Extract<Result, { _tag: "Left" }>["left"][number];
type Contents = NonNullable<NonNullable<Options["resource"]["request"]>["body"]>["contents"];
/** What the shortcut reads of a list of header or query parameters. */
type Params = readonly { name: string; required?: boolean; style?: string; schema?: unknown }[];
type Checked = { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right" };

/** Prism's `ValidationContext.Input` and `DiagnosticSeverity.Error`. */
const INPUT = 0;
const ERROR = 0;
/** Enough for every media type clients send many times over; past it, matches are not remembered. */
const MAX_MEDIA_TYPES = 1_000;

type Request = NonNullable<Options["resource"]["request"]>;
type IsSupported = (mediaType: string | undefined, contents: Contents | undefined) => boolean;
type NoneGiven = (specs: Params, target: Record<string, unknown>) => boolean;
/** The request's multipart boundary and media type, as Prism reads its Content-Type. */
type ParseMediaType = (contentType: string) => [string | undefined, string | undefined];
/** The steps of the validation whose work is remembered. */
type Remembered = {
  isSupported: IsSupported;
  noneGiven: NoneGiven;
  parseMediaType: ParseMediaType;
  validateBody: BodyValidator;
  validateHeaders: HeaderValidator;
};

/** A `validateInput` for Prism's pipeline that finds what Prism's own finds. */
export function cachedValidateInput(): ValidateInput {
  const remembered: Remembered = {
    isSupported: rememberedMediaTypeSupport(),
    noneGiven: rememberedNoneGiven(),
    parseMediaType: rememberedMediaTypes(),
    validateBody: rememberedBodyValidation(),
    validateHeaders: rememberedHeaderValidation(),
  };
  return ({ resource, element }) => {
    const { request } = resource;
    if (request == null) return { _tag: "Right", right: element };
    const bundle = (resource as { __bundled__?: unknown }).__bundled__;
    const headers = element.headers ?? {};
    const found: Diagnostic[] = [];
    for (const result of [
      checkBody(remembered, request.body, bundle, element.body, headers),
      ...checkParameters(remembered, request, resource.path, element, bundle),
    ]) {
      if (result._tag === "Left") found.push(...result.left);
    }
    return found.length > 0
      ? { _tag: "Left", left: found as [Diagnostic, ...Diagnostic[]] }
      : { _tag: "Right", right: element };
  };
}

/** Prism's `isMediaTypeSupportedInContents`, remembered per operation and media type. */
function rememberedMediaTypeSupport(): IsSupported {
  const supported = new WeakMap<object, Map<string, boolean>>();
  return (mediaType, contents) => {
    if (mediaType == null || contents == null) return true;
    let known = supported.get(contents);
    if (known === undefined) {
      known = new Map();
      supported.set(contents, known);
    }
    const remembered = known.get(mediaType);
    if (remembered !== undefined) return remembered;
    const found = contents.some(
      (c) => !c.mediaType || wildcardMediaTypeMatch(mediaType, c.mediaType),
    );
    if (known.size < MAX_MEDIA_TYPES) known.set(mediaType, found);
    return found;
  };
}

/** Prism's `parseMIMEHeader`, remembered per Content-Type (what it throws is thrown each time). */
function rememberedMediaTypes(): ParseMediaType {
  const parsed = new Map<string, [string | undefined, string | undefined]>();
  return (contentType) => {
    let known = parsed.get(contentType);
    if (known === undefined) {
      known = parseMIMEHeader(contentType) as [string | undefined, string | undefined];
      if (parsed.size < MAX_MEDIA_TYPES) parsed.set(contentType, known);
    }
    return known;
  };
}

/**
 * True when Prism's `validateParams` can find nothing: none of the parameters is required and
 * none is in the request. Prism matches names in any case; it would validate `{}`, which an
 * object schema with no required property accepts, and warn only of deprecated parameters that
 * are present. Only for parameters whose value comes from their own name: not an object (a form
 * object reads its properties' names) and not `deepObject` (`name[key]`).
 */
function rememberedNoneGiven(): NoneGiven {
  /** Per parameter list: its lower-case names when every one is optional and named plainly, else null. */
  const optionalNames = new WeakMap<Params, Set<string> | null>();
  return (specs, target) => {
    let names = optionalNames.get(specs);
    if (names === undefined) {
      names = plainOptionalNames(specs);
      optionalNames.set(specs, names);
    }
    if (names === null) return false;
    for (const key of Object.keys(target)) if (names.has(key.toLowerCase())) return false;
    return true;
  };
}

function plainOptionalNames(specs: Params): Set<string> | null {
  const plain = specs.every(
    (spec) =>
      !spec.required &&
      spec.style !== "deepObject" &&
      ["string", "number", "integer", "boolean", "array"].includes(
        String((spec.schema as { type?: unknown } | undefined)?.type),
      ),
  );
  return plain ? new Set(specs.map((spec) => spec.name.toLowerCase())) : null;
}

/** Prism's `validateInputBody`: a required body, a declared media type, then the body's schema. */
function checkBody(
  { isSupported, parseMediaType, validateBody }: Remembered,
  requestBody: Request["body"],
  bundle: unknown,
  body: unknown,
  headers: Record<string, unknown>,
): Checked {
  if (requestBody?.required && !body) {
    return failed([{ code: "required", message: "Body parameter is required", severity: ERROR }]);
  }
  const { contentType, contentLength: length } = bodyHeaders(headers);
  const [boundary, mediaType] = contentType
    ? parseMediaType(contentType as string)
    : [undefined, undefined];
  // Without a radix, as Prism reads it.
  // biome-ignore lint/correctness/useParseIntRadix: the same number as Prism's parseInt
  const contentLength = Number.parseInt(length as string) || 0;
  if (
    contentLength !== 0 &&
    !(requestBody != null && isSupported(mediaType, requestBody.contents))
  ) {
    const declared = requestBody?.contents ?? [];
    const message =
      requestBody != null && declared.length > 0
        ? `Supported content types: ${declared.map((c) => c.mediaType).join(",")}`
        : "No supported content types, but request included a non-empty body";
    return failed([{ message, code: 415, severity: ERROR }]);
  }
  if (body == null || requestBody == null) return { _tag: "Right" };
  return checked(validateBody(body, requestBody.contents ?? [], mediaType, boundary, bundle));
}

/** The headers, the query and the path parameters, in Prism's order, each skipped as Prism's would find nothing. */
function checkParameters(
  { noneGiven, validateHeaders }: Remembered,
  request: Request,
  template: string,
  element: Options["element"],
  bundle: unknown,
): Checked[] {
  const headers = element.headers ?? {};
  const query = element.url.query ?? {};
  return [
    request.headers && !noneGiven(request.headers, headers)
      ? checked(validateHeaders(headers, request.headers, bundle))
      : { _tag: "Right" as const },
    request.query && !noneGiven(request.query, query)
      ? checked(validateQuery(query, request.query, INPUT, bundle))
      : { _tag: "Right" as const },
    // Prism finds nothing to check in an empty list of path parameters.
    request.path && request.path.length > 0
      ? checked(
          validatePath(pathParameters(element.url.path, template), request.path, INPUT, bundle),
        )
      : { _tag: "Right" as const },
  ];
}

function failed(left: Diagnostic[]): Checked {
  return { _tag: "Left", left };
}

function checked(result: { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right" }): Checked {
  return result._tag === "Left" ? failed(result.left) : { _tag: "Right" };
}

/**
 * The Content-Type and Content-Length headers by name in any case, the last one of each when
 * there are several, as Prism's `caseless` reads them.
 */
function bodyHeaders(headers: Record<string, unknown>): {
  contentType: unknown;
  contentLength: unknown;
} {
  let contentType: unknown;
  let contentLength: unknown;
  for (const key of Object.keys(headers)) {
    const name = key.toLowerCase();
    if (name === "content-type") contentType = headers[key];
    else if (name === "content-length") contentLength = headers[key];
  }
  return { contentType, contentLength };
}
