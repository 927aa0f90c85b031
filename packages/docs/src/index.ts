// @org/payments-docs (private): the docs site, served. The root's `npm start` serves the built
// site beside the sandbox through this entry, and `npm run dev` rebuilds it as the spec changes.
export { startDocsDev } from "./dev-server.ts";
export { startStaticServer } from "./static-server.ts";
