// The request log's part of the typed controls.
import {
  type ControlsClient,
  dataOf,
  everyItem,
  type FiltersOf,
  type Schemas,
} from "../test-mode/client.js";

/** One API request of the partner, as the request log keeps it. */
export type RequestLogEntry = Schemas["RequestLogEntry"];

/** Which requests `requests()` lists: every field given must match. */
export type RequestFilter = FiltersOf<"/_sandbox/requests">;

export interface RequestLogControls {
  /** Every request of the log that matches the filter, newest first. */
  requests(filter?: RequestFilter): Promise<RequestLogEntry[]>;
}

export function requestLogControls(client: ControlsClient): RequestLogControls {
  return {
    requests: (filter = {}) =>
      everyItem((page) =>
        dataOf(
          "GET",
          client.GET("/_sandbox/requests", { params: { query: { ...filter, ...page } } }),
        ),
      ),
  };
}
