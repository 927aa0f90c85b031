import { specPath } from "@org/payments-spec";
import type { TestProject } from "vitest/node";
import { startMock } from "../../src/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = await startMock({ port: 0, spec: specPath });
  project.provide("mockUrl", mock.url);
  return () => mock.stop();
}
