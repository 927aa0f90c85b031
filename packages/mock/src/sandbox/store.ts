// The sandbox's data in memory, with sub-partner scoping, saved to the state file (if any)
// after every change.

import type { CollectionName, Resource, SandboxData, Stored } from "./state.js";
import { writeStateFile } from "./state-file.js";

/** The X-SUB-PARTNER-ID of a request; undefined when it has none (the partner sees everything). */
export type Scope = string | undefined;

export class Store {
  data: SandboxData;
  private readonly statePath: string | undefined;

  constructor(data: SandboxData, statePath: string | undefined) {
    this.data = data;
    this.statePath = statePath;
  }

  /** The collection's resources visible in the scope, in creation order (oldest first). */
  list(collection: CollectionName, scope: Scope): Stored[] {
    return this.data.collections[collection].filter((stored) => visible(stored, scope));
  }

  find(collection: CollectionName, id: string, scope: Scope): Stored | undefined {
    const stored = this.data.collections[collection].find((entry) => entry.resource.id === id);
    return stored && visible(stored, scope) ? stored : undefined;
  }

  insert(
    collection: CollectionName,
    resource: Resource,
    scope: Scope,
    customerId?: string,
  ): Resource {
    const stored: Stored = { resource, sub_partner_id: scope ?? null };
    if (customerId !== undefined) stored.customer_id = customerId;
    this.data.collections[collection].push(stored);
    return resource;
  }

  replace(data: SandboxData): void {
    this.data = data;
    this.save();
  }

  /** Writes the state file; call after every change. */
  save(): void {
    if (this.statePath !== undefined) writeStateFile(this.statePath, this.data);
  }
}

function visible(stored: Stored, scope: Scope): boolean {
  return scope === undefined || stored.sub_partner_id === scope;
}
