// Simulations: what the partner's provider would do on its own, made to happen through the test
// mode: a status change along its lifecycle, a deposit arriving, a fiat address added.
export {
  type DepositOptions,
  type FiatAddressOptions,
  type SandboxCollection,
  type SandboxResource,
  type SandboxResourceOf,
  type SandboxStatus,
  type SimulationControls,
  simulationControls,
} from "./controls.js";
export { SIMULATION_ROUTES, type SimulationContext } from "./routes.js";
