// The readiness profile: the default one loads, and a bad one is refused naming its file, the line
// and the rule it breaks, before anything starts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../src/generated/readiness-profile.js";
import {
  DEFAULT_PROFILE_FILE,
  defaultProfile,
  PROFILE_CONTEXT,
  ProfileError,
  parseProfile,
  readProfile,
} from "../../src/readiness/index.js";
import schema from "../../src/readiness/profile.schema.json" with { type: "json" };

const dir = mkdtempSync(join(tmpdir(), "payments-profile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("is carried read for the in-page sandbox as the default profile's YAML reads and checks", () => {
  expect(DEFAULT_PROFILE).toEqual(defaultProfile(PROFILE_CONTEXT));
});

/** The error a profile text is refused with. */
function refusal(text: string): ProfileError {
  try {
    parseProfile(text, "team.yaml", PROFILE_CONTEXT);
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return error as ProfileError;
  }
  throw new Error("the profile was accepted");
}

const HEAD = `format: 1
name: team
version: "2"
checks:
`;

describe("the readiness profile", () => {
  it("has a schema that JSON Schema 2020-12 takes (the sandbox compiles it unchecked)", () => {
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it("loads the default profile: every check the issue asks for, each with one rule", () => {
    const profile = defaultProfile(PROFILE_CONTEXT);
    expect(profile).toMatchObject({ format: 1, name: "go-live", version: "1.0.0" });
    expect(profile.checks.map((check) => check.id)).toEqual([
      "person-active",
      "business-active",
      "identifications",
      "documents-signed",
      "onramp-completed",
      "offramp-completed",
      "quote",
      "webhooks-acknowledged",
      "recovers-5xx",
      "recovers-429",
      "recovers-lost-answer",
      "idempotency-keys",
      "pagination",
      "no-deprecated",
    ]);
    for (const check of profile.checks) expect(Object.keys(check)).toHaveLength(3);
  });

  it("reads a profile file", async () => {
    const path = join(dir, "ok.yaml");
    writeFileSync(
      path,
      `${HEAD}  - id: quote\n    title: A quote\n    operations: { getAutorampQuote: 2xx }\n`,
    );
    const profile = await readProfile(path, PROFILE_CONTEXT);
    expect(profile.checks).toEqual([
      { id: "quote", title: "A quote", operations: { getAutorampQuote: "2xx" } },
    ]);
  });

  it.each([
    [
      "an unknown operationId, at its line",
      `${HEAD}  - id: quote\n    title: A quote\n    operations:\n      getQuote: 2xx\n`,
      8,
      "operationId",
      "getQuote is not an operationId of the API",
    ],
    [
      "an unknown topic",
      `${HEAD}  - id: hooks\n    title: Hooks\n    topics: [CustomerStatus, CustomerDeleted]\n`,
      7,
      "topic",
      "CustomerDeleted is not a webhook topic of the API",
    ],
    [
      "a field the format does not have",
      `${HEAD}  - id: quote\n    title: A quote\n    operations: { getAutorampQuote: 2xx }\n    weight: 3\n`,
      8,
      "additionalProperties",
      "weight is not a field of this profile format",
    ],
    [
      "two rules in one check",
      `${HEAD}  - id: quote\n    title: A quote\n    operations: { getAutorampQuote: 2xx }\n    paged: true\n`,
      5,
      "maxProperties",
      "exactly one rule",
    ],
    [
      "a check without a title",
      `${HEAD}  - id: quote\n    operations: { getAutorampQuote: 2xx }\n`,
      5,
      "required",
      "needs the field title",
    ],
    [
      "a resource kind it does not know",
      `${HEAD}  - id: refunds\n    title: Refunds\n    states:\n      refund: [Done]\n`,
      8,
      "propertyNames",
      "refund is not a resource kind",
    ],
    [
      "a status that is no status class",
      `${HEAD}  - id: quote\n    title: A quote\n    operations: { getAutorampQuote: 6xx }\n`,
      7,
      "anyOf",
      "must be a status class such as 2xx",
    ],
    [
      "a format version it does not know",
      "format: 2\nname: team\nversion: '2'\nchecks: []\n",
      1,
      "const",
      "must be 1",
    ],
    [
      "two checks with one id",
      `${HEAD}  - id: quote\n    title: A quote\n    paged: true\n  - id: quote\n    title: Again\n    paged: true\n`,
      8,
      "unique",
      "quote is the id of an earlier check",
    ],
    ["YAML that does not parse", `${HEAD}  - id: quote\n    title: [unclosed\n`, 7, "yaml", ""],
    [
      "lists nested past what the parser can read",
      `${HEAD}  - ${"[".repeat(5000)}${"]".repeat(5000)}\n`,
      5,
      "yaml",
      "nests lists or maps too deeply to read",
    ],
    [
      "aliases that expand past yaml's limit (an alias bomb)",
      `a: &a [x, x, x]\n${Array.from(
        { length: 10 },
        (_, level) =>
          `b${level}: &b${level} [${Array(10)
            .fill(level === 0 ? "*a" : `*b${level - 1}`)
            .join(", ")}]`,
      ).join("\n")}\nchecks: *b9\n`,
      1,
      "yaml",
      "alias",
    ],
  ])("refuses %s, naming the file, the line and the rule", (_, text, line, rule, words) => {
    const error = refusal(text);
    expect(error.file).toBe("team.yaml");
    expect(error.rule).toBe(rule);
    expect(error.line).toBe(line);
    expect(error.message).toMatch(new RegExp(`^readiness profile team\\.yaml:${line}:\\d+: `));
    expect(error.message).toContain(`(rule: ${rule})`);
    expect(error.message).toContain(words);
  });

  it("names the file it cannot read", async () => {
    await expect(readProfile(join(dir, "missing.yaml"), PROFILE_CONTEXT)).rejects.toThrow(
      /missing\.yaml.*cannot be read.*\(rule: file\)/,
    );
  });

  it("names the default profile as its file", () => {
    expect(DEFAULT_PROFILE_FILE).toBe("default-profile.yaml");
  });
});
