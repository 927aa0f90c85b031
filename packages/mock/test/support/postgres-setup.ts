// vitest globalSetup of the Postgres project: one Postgres for the run (its URL reaches the tests
// through inject("postgresUrl")), stopped after it.
import { startPostgres } from "@org/payments-testing";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide("postgresUrl", postgres.url);
  return () => postgres.stop();
}
