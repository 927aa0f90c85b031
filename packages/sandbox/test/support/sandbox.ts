// The sandbox on HTTP for one test (serveSandbox: the engine routes and validates, the sandbox
// answers), on the store of the test project: the helper of @org/payments-testing with the
// sandbox's own server.
import { specPath } from "@org/payments-spec";
import { API_KEY, sandboxStore, startTestSandbox, type TestSandbox } from "@org/payments-testing";
import {
  type RunningSandboxServer,
  type SandboxServerOptions,
  serveSandbox,
} from "../../src/index.js";

export type HttpSandbox = TestSandbox<RunningSandboxServer>;

export function startSandbox(options: Partial<SandboxServerOptions> = {}): Promise<HttpSandbox> {
  // The tests' key is the example key: its partner holds the seed, and the controls act on it.
  return startTestSandbox(
    (state) =>
      serveSandbox({
        spec: specPath,
        state,
        // The in-page sandbox's store, in the project that holds it to the same tests.
        ...(sandboxStore() === "javascript" && { memoryStore: "javascript" as const }),
        apiKey: API_KEY,
        exampleKey: API_KEY,
        ...options,
      }),
    options,
  );
}

/**
 * GET /autoramps/quote's path for 250.00 EUR to USDC on Polygon, its rate held within a
 * slippage, with `fields` added or replacing these.
 */
export function quotePath(fields: Record<string, string> = {}): string {
  return `/autoramps/quote?${new URLSearchParams({
    source_currency_code: "EUR",
    destination_currency_code: "USDC",
    destination_currency_chain: "Polygon",
    recipient_account: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
    amount_in: "250.00",
    rate_expiry_policy: "Slippage",
    slippage_tolerance_in_bips: "50",
    expiry_in_hours: "2",
    is_third_party: "false",
    ...fields,
  })}`;
}
