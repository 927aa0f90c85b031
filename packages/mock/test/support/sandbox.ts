// The mock's stateful mode for one test (startMock({ stateful: true })), on the store of the test
// project: the sandbox helper of @org/payments-testing with the mock's server.
import { specPath } from "@org/payments-spec";
import { API_KEY, startTestSandbox, type TestSandbox } from "@org/payments-testing";
import { type MockOptions, type RunningSandbox, startMock } from "../../src/index.js";

export function startSandbox(options: MockOptions = {}): Promise<TestSandbox<RunningSandbox>> {
  // The tests' key is the example key: its partner holds the seed, and the sandbox functions act on it.
  return startTestSandbox(
    (state) =>
      startMock({
        spec: specPath,
        state,
        apiKey: API_KEY,
        exampleKey: API_KEY,
        ...options,
        stateful: true,
      }),
    options,
  );
}
