// The declarations' generator in the tsdown configs of the published packages whose declarations
// are made of their own src/ (rolldown-plugin-dts options): TypeScript 7's compiler, the one `lint`
// runs, in one native process, rather than the TypeScript 6 API the plugin loads by itself (its
// own dependency), which costs about twice the CPU for byte-for-byte the same declarations.
// It compiles a whole tsconfig and writes any file outside the package next to its source, so
// each package hands it a tsconfig.declarations.json of its src/ only (the mock, whose declarations
// are made of the sandbox's and the engine's sources too, packages/tsconfig.mock-declarations.json).
// The plugin compiles once per output (ESM, CommonJS) and tsdown config: tsgo-once.ts makes the
// outputs of one build share one compilation.
import { fileURLToPath } from "node:url";

export const typescriptGo = {
  generator: "tsgo",
  tsgo: { path: fileURLToPath(new URL("tsgo-once.ts", import.meta.url)) },
} as const;
