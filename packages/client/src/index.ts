export { createPaymentsClient, type PaymentsClient } from "./client.js";
export {
  PaymentsApiError,
  PaymentsConnectionError,
  PaymentsError,
  PaymentsResponseError,
  PaymentsTimeoutError,
} from "./errors.js";
export type {
  IdempotencyOption,
  RequestOptions,
  SubPartnerOption,
} from "./facade.js";
export type { PaymentsResources } from "./generated/resources.js";
export type { PaymentsClientOptions } from "./options.js";
export type { ListPath, Page, PageItem, PaginateOptions, Paginator } from "./paginate.js";
export type { CallOptions, ClientPaths, PaymentsResult, ResultMeta } from "./types.js";
export { isWebhookEventOf, parseWebhookEvent, WebhookEventError } from "./webhook-events.js";
