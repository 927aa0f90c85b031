// The simulations' test-mode routes: a status walked along its lifecycle (or forced), money
// arriving on an autoramp, a fiat address added. Each works in one transaction, as a change of
// the partner's at sandbox now, with the events it sends.
import type { Answer } from "../answers/answer.js";
import type { Clock } from "../clock/index.js";
import type { Events } from "../events/index.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  type Lifecycle,
  TRANSACTION,
} from "../lifecycle/lifecycles.js";
import type { ControlRequest, Route, Routes, Schemas, Transactions } from "../test-mode/index.js";
import { deposit } from "./deposits.js";
import { addFiatAddress } from "./fiat-addresses.js";
import type { SimulationRows } from "./simulation-rows.js";
import { changeStatus } from "./status-changes.js";

/** What the simulations are handed, for the caller's partner. */
export interface SimulationContext {
  partner: string;
  store: Transactions<SimulationRows>;
  clock: Clock;
  events: Events;
}

/** The route, as a change in one transaction. */
const asChange =
  (
    work: (change: ChangeContext<SimulationRows>, request: ControlRequest) => Promise<Answer>,
  ): Route<SimulationContext> =>
  ({ partner, store, clock, events }, request) =>
    store.transaction((tx) => work({ partnerId: partner, tx, clock, events }, request));

const statusOf = (lifecycle: Lifecycle) =>
  asChange((change, { params, body }) => {
    const { status, force } = body as
      | Schemas["CustomerStatusChange"]
      | Schemas["AutorampTransactionStatusChange"];
    return changeStatus(change, lifecycle, params.id ?? "", status, force === true);
  });

export const SIMULATION_ROUTES: Routes<SimulationContext> = {
  setCustomerStatus: statusOf(CUSTOMER),
  setIdentificationStatus: statusOf(IDENTIFICATION),
  setAutorampStatus: statusOf(AUTORAMP),
  setFiatAddressStatus: statusOf(FIAT_ADDRESS),
  setAutorampTransactionStatus: statusOf(TRANSACTION),
  simulateDeposit: asChange((change, { params, body }) =>
    deposit(change, params.id ?? "", body as Schemas["Deposit"]),
  ),
  addFiatAddress: asChange((change, { params, body }) =>
    addFiatAddress(change, params.id ?? "", body as Schemas["NewFiatAddress"]),
  ),
};
