// Run by `npm test` outside turbo. scripts/check-exports.ts reaches into attw's CLI internals (its
// table and its exit code) and publint's API: on two tiny packages, it passes the one whose exports
// resolve and fails the one whose declarations are missing, each tool saying why.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../check-exports.ts");
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A CommonJS package of one module, `index.js`, whose `types` condition names `types`. */
function tinyPackage(name: string, types: string, declarations: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "payments-check-exports-test-"));
  folders.push(dir);
  const manifest = {
    name,
    version: "1.0.0",
    type: "commonjs",
    files: ["index.js", ...Object.keys(declarations)],
    exports: { ".": { types, default: "./index.js" } },
  };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(dir, "index.js"), "exports.answer = 42;\n");
  for (const [file, text] of Object.entries(declarations))
    writeFileSync(path.join(dir, file), text);
  return dir;
}

const DECLARATION = "export declare const answer: number;\n";

/** The script's exit code and output, without colours (publint colours its messages under CI). */
async function checkExports(dir: string): Promise<{ code: number; output: string }> {
  const result = await promisify(execFile)(process.execPath, [script], { cwd: dir }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { code: result.code, output: stripVTControlCharacters(result.stdout + result.stderr) };
}

describe("check-exports", () => {
  it("passes a package whose exports resolve, printing attw's node16 table", async () => {
    const fine = tinyPackage("@org/exports-fine", "./index.d.ts", { "index.d.ts": DECLARATION });
    const { code, output } = await checkExports(fine);
    expect(output).toContain("publint: @org/exports-fine");
    expect(output).toContain("All good!");
    expect(output).toMatch(/node16 \(from ESM\)/);
    expect(code).toBe(0);
  });

  it("fails a package whose declarations are missing: publint says which", async () => {
    const missing = tinyPackage("@org/exports-missing", "./index.d.ts", {});
    const { code, output } = await checkExports(missing);
    expect(output).toMatch(/error 1\. .*index\.d\.ts but the file does not exist/);
    expect(code).toBe(1);
  });

  it("fails ESM declarations of a CommonJS module: attw's table says so", async () => {
    const masquerading = tinyPackage("@org/exports-masquerading", "./index.d.mts", {
      "index.d.mts": DECLARATION,
    });
    const { code, output } = await checkExports(masquerading);
    expect(output).toContain("All good!"); // publint's verdict: the failure is attw's
    expect(output).toContain("Masquerading as ESM");
    expect(code).toBe(1);
  });
});
