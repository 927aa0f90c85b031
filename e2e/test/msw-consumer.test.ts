// `@org/payments-mock/msw` as a front end's test suite uses it, from the packed packages installed
// in a fresh npm project with `msw` (test/support/consumer-setup.ts): the mock package's own MSW
// test file (onboarding to Active, a funded onramp over a day, a fault rehearsed, two keys apart,
// the events delivered to the callback), its imports turned into a partner's, run by the
// project's vitest, and by jest.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { expect, it } from "vitest";
import { consumer, run } from "./support/consumer.js";

const { app, module } = consumer();
/** The titles of the package's tests, each as the runner reports one that passed. */
const PASSED = [
  "onboards a customer to Active and settles a funded onramp over a day: passed",
  "rehearses a fault: an armed 503 answers once, then the API answers again: passed",
  "keeps two keys apart: passed",
  "answers the test mode's readiness and refuses a bad request with the API's problem: passed",
  "refuses a body it cannot read as the servers do: a gzip bomb unopened, Latin-1, a BOM skipped: passed",
  "keeps one connection for a test's requests, as a server's framed answers let fetch do: passed",
];
const packageTest = path.resolve(
  import.meta.dirname,
  "../../packages/mock/test/msw/sandbox-handlers.test.ts",
);

/** The package's test with a partner's imports: the packed entries, the spec the package ships. */
function asAPartnerWritesIt(source: string): string {
  const rewrites: [string | RegExp, string][] = [
    ['from "../../src/msw/index.js"', 'from "@org/payments-mock/msw"'],
    [/^import \{ specPath \} from "@org\/payments-spec";\n/m, ""],
    [/^ {2}spec: specPath,\n/m, ""],
  ];
  return rewrites.reduce((text, [from, to]) => {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`${packageTest} no longer has ${String(from)}`);
    return next;
  }, source);
}

/** Each test's title and status in a JSON report (vitest writes jest's format). */
function outcomes(report: string): string[] {
  const { testResults } = JSON.parse(readFileSync(report, "utf8")) as {
    testResults: { assertionResults: { title: string; status: string }[] }[];
  };
  return testResults.flatMap((file) =>
    file.assertionResults.map((test) => `${test.title}: ${test.status}`),
  );
}

/** This process's environment with vitest's own variables unset (undefined is left out). */
function withoutVitestVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith("VITEST"))
      .map((name) => [name, undefined]),
  );
}

it("runs the mock's MSW tests from the packed packages with the project's msw and vitest", async () => {
  const dir = mkdtempSync(path.join(app, "msw-"));
  try {
    writeFileSync(
      path.join(dir, "sandbox.test.ts"),
      asAPartnerWritesIt(readFileSync(packageTest, "utf8")),
    );
    const report = path.join(dir, "report.json");
    await run(
      path.join(app, "node_modules/.bin/vitest"),
      ["run", "--root", dir, "--reporter=json", `--outputFile=${report}`],
      // The project's own vitest, not a worker of this one.
      { cwd: app, env: withoutVitestVariables() },
    );
    expect(outcomes(report)).toEqual(PASSED);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("runs the same tests under jest, in its ES module mode (MSW 3 is ES modules only)", async () => {
  const dir = mkdtempSync(path.join(app, "msw-jest-"));
  try {
    // As a partner's JavaScript test: the types taken out, jest's globals in vitest's place.
    const source = asAPartnerWritesIt(readFileSync(packageTest, "utf8"));
    const forJest = source.replace('from "vitest"', 'from "@jest/globals"');
    expect(forJest).not.toBe(source);
    writeFileSync(path.join(dir, "sandbox.test.mjs"), stripTypeScriptTypes(forJest));
    const report = path.join(dir, "report.json");
    await run(
      process.execPath,
      [
        "--experimental-vm-modules",
        module("jest/bin/jest.js"),
        ...["--rootDir", dir, "--runInBand", "--ci", "--json", `--outputFile=${report}`],
        // Its cache in the folder this test removes, not in the machine's temporary folder.
        ...["--cacheDirectory", path.join(dir, "cache")],
      ],
      { cwd: app },
    );
    expect(outcomes(report)).toEqual(PASSED);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
