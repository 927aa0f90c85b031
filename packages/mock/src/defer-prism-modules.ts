// Prism's mocker loads, as it loads, modules it calls only for some answers: its JSON Schema
// data generator (json-schema-faker and Faker with all its 77 locales, about a third of the CLI's
// start-up), used with --dynamic or for a response the spec gives no example, and its callback
// runner (an HTTP client and a logger), used by operations with callbacks. The CLI registers
// stand-ins for them first, each loading its module at its first use; the mocker reads their
// exports at each call, so it cannot tell a stand-in from the module.
import { createRequire, Module } from "node:module";

const require = createRequire(import.meta.url);

/** The modules deferred, as the mocker requires them. */
export const DEFERRED_MODULES = [
  "@stoplight/prism-http/dist/mocker/generator/JSONSchema.js",
  "@stoplight/prism-http/dist/mocker/callback/callbacks.js",
].map((name) => require.resolve(name));

/** Registers the stand-ins. Call it before Prism loads; a module already loaded is left alone. */
export function deferPrismModules(): void {
  for (const path of DEFERRED_MODULES) {
    if (require.cache[path] === undefined) require.cache[path] = standIn(path);
  }
}

/** A loaded module whose exports are `path`'s, read from it (loading it) when first used. */
function standIn(path: string): Module {
  let loaded: Record<string | symbol, unknown> | undefined;
  const target = () => {
    if (loaded === undefined) {
      delete require.cache[path];
      loaded = require(path) as Record<string | symbol, unknown>;
    }
    return loaded;
  };
  const module = new Module(path);
  module.filename = path;
  module.loaded = true;
  module.exports = new Proxy(
    {},
    {
      get: (_, name) => target()[name],
      has: (_, name) => name in target(),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, name) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(target(), name);
        // A proxy may not report a property non-configurable that its own target lacks.
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
  return module;
}
