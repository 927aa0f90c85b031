// A seed file (--seed): read from disk by Node, then checked as any seed.
import { readFileSync } from "node:fs";
import { readSeed, type Seed } from "./seed.js";

/** The seed in the JSON file at `path`; throws naming what is wrong. */
export function readSeedFile(path: string): Seed {
  const source = `seed file ${path}`;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`The sandbox ${source} cannot be read: ${(error as Error).message}`);
  }
  return readSeed(value, source);
}
