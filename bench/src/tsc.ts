// Where a TypeScript compiler's command is. TypeScript 7 exports no `bin/tsc` subpath, so its
// package.json locates the package; the command lies beside it in every version.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The `tsc` of the installed package `name` (`typescript`, or an alias such as `typescript-5.9`). */
export function tscOf(name: string): string {
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin/tsc");
}
