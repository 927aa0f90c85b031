// Simulations: what the partner's provider would do on its own, made to happen through the test
// mode: a status change along its lifecycle, a deposit arriving, a fiat address added.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export { SIMULATION_ROUTES, type SimulationContext } from "./routes.js";
