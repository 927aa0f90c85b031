// The simulations' part of the typed controls.
import type { paths } from "../generated/test-mode.js";
import {
  type ControlsClient,
  dataOf,
  idParam,
  type RequestJson,
  type ResponseJson,
  type Schemas,
} from "../test-mode/client.js";

type StatusPath = Extract<keyof paths, `/_sandbox/${string}/{id}/status`>;
type StatusRoute<C extends SandboxCollection> = `/_sandbox/${C}/{id}/status` & StatusPath;

/** The collections whose status the sandbox changes, by their path in the API. */
export type SandboxCollection = StatusPath extends `/_sandbox/${infer C}/{id}/status` ? C : never;

/** The statuses a resource of the collection may be walked to. */
export type SandboxStatus<C extends SandboxCollection> = RequestJson<StatusRoute<C>>["status"];

/** A resource of the collection, as the API answers it. */
export type SandboxResourceOf<C extends SandboxCollection> = ResponseJson<StatusRoute<C>>;

/** A resource the sandbox changed or made, as the API answers it. */
export type SandboxResource = SandboxResourceOf<SandboxCollection>;

/** Money arriving on an autoramp: `amount`, and optionally the currency, rail and outcome. */
export type DepositOptions = Schemas["Deposit"];

/** A bank account of the customer: `iban`, and optionally its other fields and outcome. */
export type FiatAddressOptions = Schemas["NewFiatAddress"];

export interface SimulationControls {
  /** Walks the resource to `status` along its lifecycle (one event per step); `force` sets it directly. */
  setStatus<C extends SandboxCollection>(
    collection: C,
    id: string,
    status: SandboxStatus<C>,
    options?: { force?: boolean },
  ): Promise<SandboxResourceOf<C>>;
  /** Money arriving on the autoramp's deposit rail: resolves to the transaction it makes. */
  deposit(
    autorampId: string,
    options: DepositOptions,
  ): Promise<SandboxResourceOf<"autoramp-transactions">>;
  /** Adds a bank account (fiat address) for the customer. */
  addFiatAddress(
    customerId: string,
    options: FiatAddressOptions,
  ): Promise<SandboxResourceOf<"addresses/fiat">>;
}

export function simulationControls(client: ControlsClient): SimulationControls {
  return {
    setStatus: (collection, resourceId, status, options = {}) =>
      // The collection names one of the five status routes; each takes { status, force }.
      dataOf(
        "POST",
        client.POST(`/_sandbox/${collection}/{id}/status` as "/_sandbox/customers/{id}/status", {
          ...idParam(resourceId),
          body: { status, ...options } as RequestJson<"/_sandbox/customers/{id}/status">,
        }),
      ) as never,
    deposit: (autorampId, options) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/autoramps/{id}/deposits", { ...idParam(autorampId), body: options }),
      ),
    addFiatAddress: (customerId, options) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/customers/{id}/fiat-addresses", {
          ...idParam(customerId),
          body: options,
        }),
      ),
  };
}
