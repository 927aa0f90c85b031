// The sandbox on the wire: the one composition of the engine and the sandbox (respondSandbox),
// the sandbox's own server (serveSandbox), its answers sent, its failures as problems. The mock's
// stateful mode serves respondSandbox with its extras.
export type { FetchSandbox } from "./fetch-handler.js";
export { type FetchSandboxOptions, fetchSandbox } from "./fetch-sandbox.js";
export {
  type PrismAnswer,
  type RefusedRoute,
  respondSandbox,
  type SandboxRouting,
  sentStatus,
} from "./respond-sandbox.js";
export { type Sent, sandboxFailure } from "./send-answer.js";
export {
  type RunningSandboxServer,
  type SandboxServerOptions,
  serveSandbox,
} from "./serve-sandbox.js";
