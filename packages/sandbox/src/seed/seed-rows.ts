// What the reset does to the store: replaces the partner's data with its seed's, and reads its
// fault rules again. Declared here, implemented by every store's transaction (src/store/).
import type { FaultRows } from "../faults/index.js";
import type { SandboxData } from "../store/sandbox-data.js";

export interface SeedRows extends FaultRows {
  /** Replaces everything of the partner's with the data (its clock stays). */
  replaceAll(data: SandboxData): Promise<void>;
}
