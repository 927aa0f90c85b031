export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export type Parameter = {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
};

export type OperationEntry = {
  method: string;
  path: string;
  operationId: string;
  tag: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object is open-ended
  operation: Record<string, any>;
  parameters: Parameter[];
};

export declare const specPath: string;
export declare const HTTP_METHODS: readonly string[];
export declare function loadSpec(path?: string): OpenApiDocument;
export declare function resolveRef(doc: OpenApiDocument, ref: string): unknown;
// biome-ignore lint/suspicious/noExplicitAny: resolved nodes are open-ended JSON
export declare function deref(doc: OpenApiDocument, node: unknown): any;
export declare function listOperations(doc: OpenApiDocument): OperationEntry[];
export declare function schemaExample(doc: OpenApiDocument, schemaNode: unknown): unknown;
export declare function parameterExample(doc: OpenApiDocument, parameter: Parameter): unknown;
export declare function requestBodyExample(
  doc: OpenApiDocument,
  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object is open-ended
  operation: Record<string, any>,
): unknown;
export declare function sampleValue(doc: OpenApiDocument, schemaNode: unknown): unknown;
