// Where the build writes: a module of its own, so that what only needs a path (the tests, the dev
// server) does not load the build and its renderers.
import path from "node:path";

const packageDir = path.resolve(import.meta.dirname, "..");
export const distDir = path.join(packageDir, "dist");
export const buildDir = path.join(packageDir, "build");
/** The build copy of the spec, with `x-codeSamples` on every operation. */
export const builtSpecPath = path.join(buildDir, "partner-payments.json");
/** The build copy of the test-mode document: one file, a curl sample on every route. */
export const builtTestModeSpecPath = path.join(buildDir, "test-mode.json");
/** Each operation's TypeScript sample as a file, for the type check of tsconfig.samples.json. */
export const builtSamplesDir = path.join(buildDir, "samples");
