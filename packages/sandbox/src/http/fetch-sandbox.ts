// The sandbox as a WHATWG fetch handler in Node (Request → Response, with no server), on a spec's
// file and the Node store (SQLite in memory by default): what MSW's handlers answer with under
// setupServer. The handler itself is fetch-handler.ts's, which the in-page sandbox shares.
import type { SandboxOptions } from "../compose-sandbox.js";
import { createSandbox } from "../sandbox.js";
import { testModeDocument } from "../test-mode/index.js";
import { engineOf } from "./engines.js";
import { type FetchSandbox, sandboxOverFetch } from "./fetch-handler.js";

export interface FetchSandboxOptions extends Omit<SandboxOptions, "operations"> {
  /** The API's OpenAPI document: a file's path, or the document itself. */
  spec: string | object;
  /** The URL the sandbox answers under, which its controls send to. Default `http://sandbox.test`. */
  baseUrl?: string;
  /** The key the returned controls send. Default: a new key, a partner of its own. */
  apiKey?: string;
}

/** Makes a sandbox that answers fetch's requests; resolves once it answers. */
export async function fetchSandbox(options: FetchSandboxOptions): Promise<FetchSandbox> {
  const { spec, baseUrl, apiKey, ...rest } = options;
  const engine = await engineOf(spec);
  const sandbox = await createSandbox({ ...rest, operations: engine.operations });
  return sandboxOverFetch({
    sandbox,
    engine,
    controlEngine: () => engineOf(testModeDocument),
    baseUrl,
    apiKey,
  });
}
