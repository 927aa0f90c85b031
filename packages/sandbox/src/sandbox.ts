// The stateful sandbox: the API's operations over data that persists, behind the same Prism
// request validation as the stateless mock. handler.ts hands it each validated request.

import type { Operations, Routed } from "@org/payments-engine/engine/prism.js";
import { isObject } from "@org/payments-engine/http/is-object.js";
import type { ApiRequest } from "@org/payments-engine/http/read-request.js";
import { type Answer, problemAnswer } from "./api/answer.js";
import { handlerOf } from "./api/api-routes.js";
import { dataFromSeed, defaultSeed, readSeed } from "./api/seed.js";
import { answerControl, type ControlServices } from "./control/control-routes.js";
import type { ChangeContext } from "./lifecycle/change-context.js";
import { performStep } from "./lifecycle/changes.js";
import { SandboxClock } from "./lifecycle/clock.js";
import { Scheduler } from "./lifecycle/scheduler.js";
import { readSpecFacts } from "./lifecycle/spec-facts.js";
import { Idempotency, settled } from "./store/idempotency.js";
import { openStore } from "./store/open-store.js";
import { ReadCache } from "./store/read-cache.js";
import type { StoreTransaction } from "./store/store.js";
import { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from "./webhooks/deliveries.js";
import { type DeliveryChaos, Events } from "./webhooks/events.js";

export interface SandboxOptions {
  /** The spec's operations: their examples make the default seed, their enums bound statuses. */
  operations: Operations;
  /**
   * Where the data persists: a SQLite database file (a 0.1 JSON state file is migrated into
   * one), or a postgres:// URL for a sandbox shared by several processes. Without it the data
   * lives in memory as long as the process.
   */
  state?: string;
  /** A seed file's path or a seed object, instead of the one made from the spec's examples. */
  seed?: string | object;
  delivery?: Partial<DeliveryLimits>;
  /** Duplicate and reorder webhook deliveries, deterministically from the seed (see events.ts). */
  deliveryChaos?: DeliveryChaos;
  /** Gets the line saying that a 0.1 JSON state file was migrated. Default: stderr. */
  log?: (line: string) => void;
}

export interface Sandbox {
  /** The answer to an API request that Prism has validated and routed. */
  answer(request: ApiRequest, routed: Routed): Promise<Answer>;
  /** The answer to a request under /_sandbox/ that the engine has validated and routed. */
  control(request: ApiRequest, routed: Routed): Promise<Answer>;
  close(): Promise<void>;
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const facts = readSpecFacts(options.operations);
  const seed = options.seed === undefined ? defaultSeed(facts) : readSeed(options.seed);
  const log = options.log ?? ((line: string) => console.error(line));
  const store = await openStore(options.state, () => dataFromSeed(seed), log);
  const clock = new SandboxClock(await store.transaction((tx) => tx.clockOffset()));
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...options.delivery };
  const events = new Events(store, limits, clock, options.deliveryChaos);
  const changes = (tx: StoreTransaction): ChangeContext => ({ tx, clock, events });
  const scheduler = new Scheduler(store, clock, {
    step: performStep(changes),
    deliver: events.perform,
  });
  const idempotency = new Idempotency(store);
  const reads = new ReadCache(store);
  const services: ControlServices = {
    store,
    clock,
    events,
    scheduler,
    changes,
    reset: (tx) => tx.replaceAll(dataFromSeed(seed)),
  };
  /** Sends what the request queued, once its transaction has committed. */
  const sendQueued = <T>(answer: T): T => {
    if (events.takeQueued()) scheduler.kick();
    return answer;
  };
  /** Another process may have moved a shared sandbox's clock. */
  const syncClock = async (tx: StoreTransaction) => {
    if (store.shared) clock.observe(await tx.clockOffset());
  };

  return {
    async answer(request, { operation, params }) {
      const handler = handlerOf(operation.iid);
      if (handler === undefined) {
        return problemAnswer(404, "not-found", "Not found", [
          {
            location: "route",
            field: "",
            rule: "route",
            message: `no sandbox route ${request.path}`,
          },
        ]);
      }
      const scope = header(request, "x-sub-partner-id");
      const work = async (tx: StoreTransaction) => {
        await syncClock(tx);
        return handler({
          params,
          query: request.query,
          body: isObject(request.body) ? request.body : {},
          scope,
          store: tx,
          events,
          facts,
          clock,
        });
      };
      const key = header(request, "idempotency-key");
      if (request.method.toUpperCase() !== "POST" || key === undefined) {
        const read = { operationId: operation.iid, params, query: request.query, scope };
        return sendQueued(
          await reads.answer(read, async () => settled(await store.transaction(work))),
        );
      }
      const keyed = { key, method: "POST", path: request.path, scope, body: request.body };
      return sendQueued(await idempotency.run(keyed, work));
    },
    async control(request, { operation, params }) {
      if (store.shared) await scheduler.syncClock();
      const body = isObject(request.body) ? request.body : {};
      const answer = await answerControl(services, operation.iid ?? "", {
        params,
        query: request.query,
        body,
      });
      return sendQueued(answer);
    },
    async close() {
      await scheduler.close();
      await store.close();
    },
  };
}

function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return value === undefined || value === "" ? undefined : value;
}
