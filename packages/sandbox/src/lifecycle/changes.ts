// How a resource moves through its lifecycle (lifecycles.ts): each step sets its status, sends its
// status event and causes what it causes elsewhere (cascades.ts); after the last step, the next
// timed step is scheduled on the sandbox clock. Everything happens in the transaction of the
// change that caused it.

import type { CollectionName, Resource, Stored } from "../store/sandbox-data.js";
import type { JobFinish, ScheduledJob, StoreTransaction } from "../store/store.js";
import { afterStep, enterStatus } from "./cascades.js";
import { type ChangeContext, customerIdOf } from "./change-context.js";
import {
  type Lifecycle,
  lifecycleOf,
  pathBetween,
  TRANSACTION,
  TRANSACTION_STATES,
  timedTransition,
} from "./lifecycles.js";
import { stateCounts } from "./states-reached.js";

/** The body of a scheduled timed step. */
interface StepJob {
  collection: CollectionName;
  id: string;
  from: string;
  to: string;
  /** The outcome chosen for the resource, which its later timed steps follow. */
  outcome?: string;
}

/** Sends a new resource's creation event and schedules its first timed step. */
export async function announceCreated(
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  outcome?: string,
): Promise<void> {
  const customerId = customerIdOf(lifecycle, stored);
  await context.tx.markCounts(stateCounts(lifecycle.collection, stored.resource));
  await context.events.broadcast(
    context.tx,
    lifecycle.createdTopic,
    customerId,
    stored.resource,
    context.clock,
  );
  await scheduleStep(context, lifecycle, stored.resource, outcome);
}

/**
 * Moves the resource along the shortest legal path to `target`, one step (and one event) at a
 * time; false when no legal path leads there.
 */
export async function walkTo(
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  target: string,
): Promise<boolean> {
  const path = pathBetween(lifecycle, String(stored.resource.status), target);
  if (path === undefined) return false;
  for (const status of path) await step(context, lifecycle, stored, status);
  await scheduleNextStep(context, lifecycle, stored.resource, undefined);
  return true;
}

/** Sets the status directly, legal or not: one event, no cascade; timed steps go on from there. */
export async function forceStatus(
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  status: string,
): Promise<void> {
  setStatus(context, lifecycle, stored.resource, status);
  await context.tx.update(lifecycle.collection, stored.resource);
  await context.tx.markCounts(stateCounts(lifecycle.collection, stored.resource));
  await sendStatus(context, lifecycle, stored);
  await scheduleNextStep(context, lifecycle, stored.resource, undefined);
}

/** The scheduler's work for a timed step: it commits in the job's transaction. */
export function performStep(
  changes: (tx: StoreTransaction) => ChangeContext,
): (job: ScheduledJob) => Promise<JobFinish> {
  return async (job) => async (tx) => {
    const context = changes(tx);
    const body = job.body as StepJob;
    const lifecycle = lifecycleOf(body.collection);
    const stored = await tx.find(body.collection, body.id, undefined);
    // A resource that has moved on since (a simulation, a cascade) is no longer this step's.
    if (lifecycle === undefined || stored === undefined || stored.resource.status !== body.from) {
      return;
    }
    await step(context, lifecycle, stored, body.to);
    await scheduleNextStep(context, lifecycle, stored.resource, body.outcome);
  };
}

async function step(
  context: ChangeContext,
  lifecycle: Lifecycle,
  stored: Stored,
  status: string,
): Promise<void> {
  const from = String(stored.resource.status);
  setStatus(context, lifecycle, stored.resource, status);
  enterStatus(context, lifecycle, stored.resource);
  await context.tx.update(lifecycle.collection, stored.resource);
  await context.tx.markCounts(stateCounts(lifecycle.collection, stored.resource));
  await sendStatus(context, lifecycle, stored);
  await afterStep(context, lifecycle, stored, from, walkTo);
}

function setStatus(
  context: ChangeContext,
  lifecycle: Lifecycle,
  resource: Resource,
  status: string,
): void {
  resource.status = status;
  if (lifecycle === TRANSACTION && TRANSACTION_STATES[status] !== undefined) {
    resource.state = TRANSACTION_STATES[status];
  }
  if ("updated_at" in resource) resource.updated_at = context.clock.now().toISOString();
}

function sendStatus(context: ChangeContext, lifecycle: Lifecycle, stored: Stored): Promise<void> {
  const customerId = customerIdOf(lifecycle, stored);
  return context.events.broadcast(
    context.tx,
    lifecycle.statusTopic,
    customerId,
    stored.resource,
    context.clock,
  );
}

/** Replaces the resource's pending timed step with the one its status now leads to, if any. */
async function scheduleNextStep(
  context: ChangeContext,
  lifecycle: Lifecycle,
  resource: Resource,
  outcome: string | undefined,
): Promise<void> {
  await context.tx.cancelSteps(resource.id);
  await scheduleStep(context, lifecycle, resource, outcome);
}

/** Schedules the timed step the resource's status leads to, if any. */
async function scheduleStep(
  context: ChangeContext,
  lifecycle: Lifecycle,
  resource: Resource,
  outcome: string | undefined,
): Promise<void> {
  const from = String(resource.status);
  const next = timedTransition(lifecycle, from, outcome);
  if (next === undefined) return;
  const body: StepJob = {
    collection: lifecycle.collection,
    id: resource.id,
    from,
    to: next.to,
    ...(outcome !== undefined && { outcome }),
  };
  await context.tx.schedule({
    dueAt: context.clock.now().getTime() + (next.afterSeconds ?? 0) * 1000,
    kind: "step",
    subject: resource.id,
    body,
  });
}
