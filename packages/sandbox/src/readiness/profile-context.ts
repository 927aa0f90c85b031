// What a readiness profile is checked against: the API's operationIds and webhook topics.
import { WEBHOOK_TOPICS } from "@org/payments-types";
import { API_OPERATIONS } from "../generated/api-operations.js";
import type { ProfileContext } from "./profile.js";

export const PROFILE_CONTEXT: ProfileContext = {
  operationIds: API_OPERATIONS.map((operation) => operation.id),
  topics: WEBHOOK_TOPICS,
};
