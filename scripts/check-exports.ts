// `check-exports` of each published package: publint, then attw with the node16 profile, on the
// tarball `pnpm pack` makes of the package (what `changeset publish` uploads), packed once for both.
// Their APIs in one process rather than their CLIs: each CLI packs the package again (attw's with
// npm, which alone costs more than both checks), and the CLIs' verdicts are kept: publint fails
// on an error and prints every message, attw fails as its CLI's exit code says and prints its
// table.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { getExitCode } from "@arethetypeswrong/cli/internal/getExitCode";
import { typed, untyped } from "@arethetypeswrong/cli/internal/render";
import type * as Attw from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

/** attw's checks, the version its CLI renders and judges (its own dependency). */
const attw: typeof Attw = createRequire(import.meta.resolve("@arethetypeswrong/cli/package.json"))(
  "@arethetypeswrong/core",
);

/** `attw --profile node16`: a package may leave node10's resolution unanswered. */
const NODE16 = { ignoreResolutions: ["node10" as const] };

/** The package in `dir`, packed into a folder that is removed again. */
function packed(dir: string): Buffer {
  const work = mkdtempSync(path.join(tmpdir(), "payments-check-exports-"));
  try {
    const output = execFileSync("pnpm", ["pack", "--json", "--pack-destination", work], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    return readFileSync(path.resolve(dir, JSON.parse(output).filename));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** publint's messages as its CLI prints them; true when one is an error. */
async function lintPackage(tarball: Buffer): Promise<boolean> {
  const { messages, pkg } = await publint({
    pack: { tarball: new Uint8Array(tarball).buffer },
    level: "suggestion",
  });
  console.log(`publint: ${pkg.name}`);
  if (messages.length === 0) console.log("All good!");
  for (const type of ["error", "warning", "suggestion"] as const) {
    messages
      .filter((message) => message.type === type)
      .forEach((message, index) => {
        console.log(`${type} ${index + 1}. ${formatMessage(message, pkg)}`);
      });
  }
  return messages.some((message) => message.type === "error");
}

/** attw's table for the node16 profile; true when its CLI would exit non-zero. */
async function checkTypes(tarball: Buffer): Promise<boolean> {
  const analysis = await attw.checkPackage(attw.createPackageFromTarballData(tarball));
  if (!analysis.types) {
    console.log(untyped(analysis));
    return false;
  }
  console.log(await typed(analysis, NODE16));
  return getExitCode(analysis, NODE16) !== 0;
}

const tarball = packed(process.cwd());
const failed = [await lintPackage(tarball), await checkTypes(tarball)].some(Boolean);
process.exitCode = failed ? 1 : 0;
