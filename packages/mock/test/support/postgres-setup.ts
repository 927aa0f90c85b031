// vitest globalSetup of the Postgres sandbox project: one Postgres for the run, stopped after it.

import { startPostgres } from "@org/payments-testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test Postgres's server URL, in the Postgres project. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide("postgresUrl", postgres.url);
  return () => postgres.stop();
}
