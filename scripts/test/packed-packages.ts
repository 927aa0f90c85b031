// vitest globalSetup of the repository's tests: the published packages packed once for the run
// (`pnpm pack` of each takes seconds of CPU), into a temp folder removed after it. The tarballs'
// tests (packed-files) and the release record's (release-rehearsal) both read them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type PackedPackage, packPublishedPackages } from "../pack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The published packages, packed for this run. */
    packedPackages: PackedPackage[];
  }
}

export default function setup(project: TestProject) {
  const destination = mkdtempSync(path.join(tmpdir(), "payments-packed-"));
  try {
    project.provide("packedPackages", packPublishedPackages(destination));
  } catch (error) {
    rmSync(destination, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(destination, { recursive: true, force: true });
}
