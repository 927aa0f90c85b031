// What every command does with its arguments before anything else: an option that takes one value
// given twice is refused, naming it (exit code 2), where the last one used to win unsaid; an
// option documented as repeatable still takes several; a flag given both ways (--cors --no-cors) is
// refused too. The commands share one parser: each is
// run by its main here, the server commands (serve, proxy) as the built CLI in cli.test.ts.
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../src/cli-args.js";
import { fixturesMain } from "../src/fixtures-cli.js";
import { impactMain } from "../src/impact-cli.js";
import { readinessMain } from "../src/readiness-cli.js";
import { triggerMain } from "../src/trigger-cli.js";
import { runMain } from "./support/run-main.js";

describe("an option given twice", () => {
  it.for([
    {
      command: "readiness",
      main: readinessMain,
      argv: ["--url", "http://127.0.0.1:1", "--format", "json", "--format", "text"],
      flag: "--format",
    },
    {
      command: "readiness",
      main: readinessMain,
      argv: ["--from", "a", "--from", "b"],
      flag: "--from",
    },
    {
      command: "impact",
      main: impactMain,
      argv: ["--against", "a.yaml", "--against", "b.yaml", "--url", "http://127.0.0.1:1"],
      flag: "--against",
    },
    {
      command: "fixtures",
      main: fixturesMain,
      argv: ["steps.yaml", "--url", "http://127.0.0.1:1", "--url=http://127.0.0.1:2"],
      flag: "--url",
    },
    {
      command: "trigger",
      main: triggerMain,
      argv: ["CustomerCreated", "--customer", "c1", "--customer", "c2"],
      flag: "--customer",
    },
  ])(
    "payments-mock $command refuses $flag given twice, naming it",
    async ({ main, argv, flag }) => {
      const run = await runMain(main, argv, { PAYMENTS_API_KEY: "k" });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `payments-mock: ${flag} was given more than once: give it once (only options marked repeatable take several)`,
      );
      expect(run.stdout).toBe("");
    },
  );

  it("is taken when it is repeatable (trigger's --override)", async () => {
    const run = await runMain(triggerMain, [
      "CustomerCreated",
      "--print",
      "--override",
      "customer.email=a@example.com",
      "--override",
      "customer.name=A",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("steps:");
  });
});

describe("a flag given both ways", () => {
  const options = { cors: { type: "boolean", default: true } } as const;
  const parse = (argv: string[]) =>
    parseCommandLine(
      argv,
      options,
      (message) => {
        throw new Error(message);
      },
      { positionals: false, negatives: true },
    );

  it.for([
    ["--cors", "--no-cors"],
    ["--no-cors", "--cors"],
  ])("is refused, naming both (%s %s), where the last one used to win", (argv) => {
    expect(() => parse(argv)).toThrow("--cors and --no-cors were both given: give one of them");
  });

  it("is taken the same way twice, and either way once", () => {
    expect(parse(["--no-cors", "--no-cors"]).values.cors).toBe(false);
    expect(parse(["--no-cors"]).values.cors).toBe(false);
    expect(parse(["--cors"]).values.cors).toBe(true);
  });
});
