// The seed's part of the typed controls.
import { type ControlsClient, dataOf } from "../test-mode/client.js";

export interface SeedControls {
  /** The partner back to what it started with (its clock stays where it is); disarms every rule. */
  reset(): Promise<void>;
}

export function seedControls(client: ControlsClient): SeedControls {
  return {
    reset: async () => {
      await dataOf("POST", client.POST("/_sandbox/reset"));
    },
  };
}
