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
