// Global setup of the e2e suite: packs the published packages, installs the tarballs into a fresh
// npm project as a partner would, and the tools the tests run it with in a folder beside it (with
// pnpm, from its store). One install each, so that a loaded machine does not run a dozen at once.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { packPublishedPackages } from "../../../scripts/pack.ts";
import { asideTools, MSW, npmInstall, pnpmAdd, TYPES_NODE, VITEST } from "./consumer.js";

const fixtures = path.resolve(import.meta.dirname, "../../fixtures");

export default async function setup(project: TestProject) {
  const work = mkdtempSync(path.join(tmpdir(), "payments-consumer-"));
  try {
    const packed = packPublishedPackages(path.join(work, "tarballs"));
    const app = path.join(work, "app");
    mkdirSync(app);
    cpSync(fixtures, app, { recursive: true });
    const dependencies = {
      ...Object.fromEntries(packed.map((pkg) => [pkg.name, `file:${pkg.tarball}`])),
      "@types/node": TYPES_NODE,
      msw: MSW,
      vitest: VITEST,
    };
    const manifest = {
      name: "consumer-app",
      private: true,
      type: "module",
      dependencies,
      // As the mock's README tells partners: no install-time telemetry from Prism's dependency.
      scarfSettings: { enabled: false },
    };
    writeFileSync(path.join(app, "package.json"), JSON.stringify(manifest, null, 2));
    const aside = path.join(work, "aside");
    mkdirSync(aside);
    writeFileSync(path.join(aside, "package.json"), "{}");
    await Promise.all([npmInstall(app), pnpmAdd(aside, asideTools())]);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  project.provide("consumerWork", work);
  return () => rmSync(work, { recursive: true, force: true });
}
