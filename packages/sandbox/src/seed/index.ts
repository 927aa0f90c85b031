// The seed: the data every partner starts with (the whole seed for the example key, a part of it
// for the others), read from the spec's examples or a file, and the reset back to it.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.

export { SEED_ROUTES, type SeedContext } from "./routes.js";
export {
  dataFromSeed,
  defaultSeed,
  defaultSeedOf,
  ownStarterSeed,
  readSeed,
  type Seed,
  starterSeed,
} from "./seed.js";
export { readSeedFile } from "./seed-file.js";
