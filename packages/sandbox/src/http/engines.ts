// Each document's engine, made once per process: an engine is not changed by what it routes.
import { createPrismEngine, type PrismEngine } from "@org/payments-engine";

const engines = new Map<string | object, Promise<PrismEngine>>();

export function engineOf(document: string | object): Promise<PrismEngine> {
  let engine = engines.get(document);
  if (engine === undefined) {
    engine = createPrismEngine(document, false);
    engines.set(document, engine);
    engine.catch(() => engines.delete(document));
  }
  return engine;
}
