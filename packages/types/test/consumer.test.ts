// Type-checks a tiny consumer project against the built package, the way a partner's project
// resolves it: by package name from node_modules, under each supported moduleResolution.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const run = promisify(execFile);
// TypeScript 7 exports no `bin/tsc` subpath: its package.json locates the command.
const tsc = join(
  dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
  "bin/tsc",
);
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const fixture = fileURLToPath(new URL("fixtures/consumer", import.meta.url));

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "payments-types-consumer-"));
  cpSync(fixture, project, { recursive: true });
  mkdirSync(join(project, "node_modules/@org"), { recursive: true });
  symlinkSync(packageRoot, join(project, "node_modules/@org/payments-types"), "dir");
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe("a consumer project type-checks against dist/", () => {
  test.each(["node16", "nodenext", "bundler"])(
    "moduleResolution %s",
    async (mode) => {
      const result = run(process.execPath, [tsc, "-p", join(project, `tsconfig.${mode}.json`)]);
      await expect(result).resolves.toMatchObject({ stdout: "" });
    },
    60_000,
  );
});
