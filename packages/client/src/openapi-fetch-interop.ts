/**
 * openapi-fetch's `createClient`, the same function in both builds. In a `"type": "module"`
 * package, tsdown's CommonJS output wraps `require("openapi-fetch")` the way Node wraps CommonJS
 * for ESM, so the default import becomes openapi-fetch's whole exports object
 * (rolldown/rolldown#10800). The ESM build gets the function itself.
 */
import openapiFetchDefault from "openapi-fetch";

type CreateClient = typeof openapiFetchDefault;
const imported = openapiFetchDefault as CreateClient | { default: CreateClient };

export const createClient: CreateClient =
  typeof imported === "function" ? imported : imported.default;
