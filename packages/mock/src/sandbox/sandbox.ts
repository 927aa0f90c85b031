// The stateful sandbox: the API's operations over data that persists, behind the same Prism
// request validation as the stateless mock. handler.ts hands it each validated request.

import { isObject } from "../is-object.js";
import type { Operations, PrismRequest } from "../prism.js";
import { type Answer, problemAnswer } from "./answer.js";
import { matchRoute } from "./api-routes.js";
import { answerControl, CONTROL_PREFIX } from "./control.js";
import { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from "./deliveries.js";
import { Events } from "./events.js";
import { Idempotency } from "./idempotency.js";
import { dataFromSeed, defaultSeed, readSeed } from "./seed.js";
import { readSpecFacts } from "./spec-facts.js";
import { readStateFile } from "./state-file.js";
import { Store } from "./store.js";

export interface SandboxOptions {
  /** The spec's operations: their examples make the default seed, their enums bound statuses. */
  operations: Operations;
  /** JSON file the data persists in; without it the data lives only as long as the process. */
  state?: string;
  /** A seed file's path or a seed object, instead of the one made from the spec's examples. */
  seed?: string | object;
  delivery?: Partial<DeliveryLimits>;
}

export interface Sandbox {
  /** The answer to an API request that Prism has validated. */
  answer(request: PrismRequest): Promise<Answer>;
  /** The answer to a request under /_sandbox/. */
  control(request: PrismRequest): Promise<Answer>;
  close(): Promise<void>;
}

export function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX);
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const facts = readSpecFacts(options.operations);
  const seed = options.seed === undefined ? defaultSeed(facts) : readSeed(options.seed);
  const saved = options.state === undefined ? undefined : readStateFile(options.state);
  const store = new Store(saved ?? dataFromSeed(seed), options.state);
  if (saved === undefined) store.save();
  const events = new Events(store, { ...DEFAULT_DELIVERY_LIMITS, ...options.delivery });
  const idempotency = new Idempotency(() => store.data.idempotency);
  const reset = () => store.replace(dataFromSeed(seed));

  return {
    async answer(request) {
      const route = matchRoute(request.method, request.path);
      if (route === undefined) {
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
      const context = {
        params: route.params,
        query: request.query,
        body: isObject(request.body) ? request.body : {},
        scope,
        store,
        events,
        facts,
      };
      const key = header(request, "idempotency-key");
      if (request.method.toUpperCase() !== "POST" || key === undefined) {
        const answer = await route.answer(context);
        if (request.method.toUpperCase() !== "GET") store.save();
        return answer;
      }
      const keyed = { key, method: "POST", path: request.path, scope, body: request.body };
      return idempotency.run(
        keyed,
        () => route.answer(context),
        () => store.save(),
      );
    },
    async control(request) {
      if (!header(request, "x-api-key")) {
        return problemAnswer(401, "unauthorized", "Missing or invalid API key", [
          { location: "security", field: "X-API-Key", rule: "required", message: "is required" },
        ]);
      }
      return answerControl(
        { store, events, facts, reset },
        request.method,
        request.path,
        request.body,
      );
    },
    close: () => events.close(),
  };
}

function header(request: PrismRequest, name: string): string | undefined {
  const value = request.headers[name];
  return value === undefined || value === "" ? undefined : value;
}
