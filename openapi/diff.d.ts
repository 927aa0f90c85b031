import type { OpenApiDocument } from "./index.js";

export type SpecChange = { where: string; message: string };
export type SpecDiff = { breaking: SpecChange[]; additions: SpecChange[] };

export declare function diffSpecs(base: OpenApiDocument, head: OpenApiDocument): SpecDiff;
