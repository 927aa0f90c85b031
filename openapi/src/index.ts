// @org/payments-spec: the hand-authored OpenAPI documents (their paths), a small loader and the
// walks the packages' generators and tests share. The wire diff is `./diff`, the generators'
// file writing `./codegen`.
export { bundleDocument, loadBundledSpec } from "./bundle.ts";
export { type Deprecation, deprecationNotice, deprecationOf } from "./deprecation.ts";
export * from "./document.ts";
