// `npm run version-packages` must leave a tree that passes CI (issue 60): after `changeset version`
// it releases the documents (a new info.version in each changed one), so every file generated from
// them is made again, and what it wrote is formatted as Biome checks it. The documents' step itself
// is tested on a copy in packages/surface-guard/test/release-documents.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const manifest = (folder: string) =>
  JSON.parse(readFileSync(path.join(root, folder, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };

describe("npm run version-packages", () => {
  const command = manifest(".").scripts?.["version-packages"] ?? "";
  const steps = /run "(.*)"$/.exec(command)?.[1]?.split(" && ") ?? [];

  it("versions the packages, then the documents, then regenerates, formats and locks, in that order", () => {
    expect(steps).toEqual([
      "changeset version",
      "node packages/surface-guard/scripts/release-documents.ts",
      "pnpm -r --if-present run generate",
      "biome format --write openapi/released packages/*/CHANGELOG.md",
      "pnpm install --lockfile-only",
    ]);
  });

  it("regenerates every package whose generated files are made from the documents", () => {
    const generated = readdirSync(path.join(root, "packages")).filter((name) => {
      const generator = path.join(root, "packages", name, "scripts/generate.ts");
      try {
        return /@org\/payments-spec/.test(readFileSync(generator, "utf8"));
      } catch {
        return false;
      }
    });
    expect(generated.sort()).toEqual(["client", "mcp", "sandbox", "types"]);
    for (const name of generated) {
      expect(manifest(`packages/${name}`).scripts?.generate, name).toBe("node scripts/generate.ts");
    }
  });
});
