// What the simulations keep in the store: the resources a change walks (lifecycle's rows), the new
// ones a deposit or an address adds, the pricing a deposit is priced by. Declared here, implemented
// by every store's transaction (src/store/) as it is.

import type { JsonText } from "../json/json-text.js";
import type { ChangeRows } from "../lifecycle/change-context.js";
import type { MoneyRows } from "../money/index.js";
import type { CollectionName, Resource } from "../store/sandbox-data.js";
import type { Scope } from "../store/store.js";

export interface SimulationRows extends ChangeRows, MoneyRows {
  /** Stores a new resource; resolves to its JSON as stored. */
  insert(
    collection: CollectionName,
    resource: Resource,
    scope: Scope,
    customerId?: string,
  ): Promise<JsonText>;
}
