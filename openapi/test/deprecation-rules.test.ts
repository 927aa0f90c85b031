// The lint's deprecation rules (redocly.yaml): `x-sunset` is a quoted YYYY-MM-DD date, and only
// next to `deprecated: true`; a deprecation with both extensions lints clean.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "payments-deprecation-rules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-operation document whose operation and body field carry `operation` and `field`. */
function document(operation: string, field: string): string {
  return `openapi: 3.1.0
info: { title: deprecation rules, version: "1", description: Deprecations., license: { name: MIT, identifier: MIT } }
servers: [{ url: "https://api.example.com" }]
security: []
tags: [{ name: Widgets, description: Widgets. }]
paths:
  /widgets:
    post:
      operationId: createWidget
      tags: [Widgets]
      summary: Create a widget
${operation}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                code:
                  type: string
${field}
            examples: { widget: { value: { code: G } } }
      responses:
        "200":
          description: The widget
          content:
            application/json:
              schema: { type: object }
              examples: { widget: { value: {} } }
`;
}

async function lint(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, text);
  const redocly = join(root, "node_modules/.bin/redocly");
  return promisify(execFile)(redocly, ["lint", "--config", "redocly.yaml", file], { cwd: root })
    .then(({ stdout, stderr }) => `passed\n${stdout}${stderr}`)
    .catch((error: { stdout: string; stderr: string }) => `failed\n${error.stdout}${error.stderr}`);
}

describe("the lint's deprecation rules", () => {
  it("pass a deprecated operation and field with a sunset date and a replacement", async () => {
    const output = await lint(
      "good.yaml",
      document(
        '      deprecated: true\n      x-sunset: "2027-06-30"\n      x-replacement: "`createGadget`"',
        '                  deprecated: true\n                  x-sunset: "2027-03-31"',
      ),
    );
    expect(output).toMatch(/^passed/);
  });

  it("refuse a sunset that is not a date, and a sunset on something not deprecated", async () => {
    const output = await lint(
      "bad.yaml",
      document(
        '      deprecated: true\n      x-sunset: "June 2027"',
        '                  x-sunset: "2027-03-31"',
      ),
    );
    expect(output).toMatch(/^failed/);
    expect(output).toContain("rule/operation-sunset-is-a-date");
    expect(output).toContain("rule/schema-sunset-is-deprecated");
  });
});
