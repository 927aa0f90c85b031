// The sandbox's lifecycles, as its own code defines them: the one place the docs build reads them
// from (the sandbox is a private part of @org/payments-mock and exports no such data), so the
// diagrams and tables of the Test mode guides are made from what the sandbox runs.
export {
  LIFECYCLES,
  type Lifecycle,
  lifecycleDiagram,
  TRANSACTION_STATES,
  type Transition,
} from "../../sandbox/src/lifecycle/lifecycles.ts";
