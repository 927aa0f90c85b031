// The fault rules' part of the typed controls.
import { type ControlsClient, dataOf, idParam, type Schemas } from "../test-mode/client.js";

/** A fault rule to arm: which requests (`operation_id`) or deliveries (`topic`), and what it does. */
export type FaultOptions = Schemas["NewFault"];

/** An armed fault rule, with its `id` and what `remains` of it. */
export type SandboxFault = Schemas["Fault"];

export interface FaultControls {
  /** Arms a fault rule for this partner's requests or deliveries; resolves to it, with its id. */
  armFault(rule: FaultOptions): Promise<SandboxFault>;
  /** The armed fault rules, oldest first. */
  faults(): Promise<SandboxFault[]>;
  /** Disarms the rule; resolves to it as it was. */
  disarmFault(faultId: string): Promise<SandboxFault>;
}

export function faultControls(client: ControlsClient): FaultControls {
  return {
    armFault: (rule) => dataOf("POST", client.POST("/_sandbox/faults", { body: rule })),
    faults: async () => (await dataOf("GET", client.GET("/_sandbox/faults"))).items,
    disarmFault: (faultId) =>
      dataOf("DELETE", client.DELETE("/_sandbox/faults/{id}", idParam(faultId))),
  };
}
