// The client the contract tests call the mock through: the published one, as partners use it.
import { createPaymentsClient } from "@org/payments-client";

export function createContractClient(baseUrl: string, apiKey: string) {
  return createPaymentsClient({ apiKey, baseUrl });
}
