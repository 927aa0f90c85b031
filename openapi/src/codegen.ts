// What every package's generator shares: formatting what it emits, finding the committed files a
// fresh generation would change, and writing them. Generated files are committed, so under CI they
// are only compared with what the spec gives: a stale file fails the run with the command that
// regenerates it, instead of being silently rewritten before the tests see it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

/**
 * `code` formatted by the repository's Biome as a file named `name` (its extension picks the
 * language). `src/generated/` is excluded from `biome check`, so generators format what they emit.
 */
export function formatGenerated(name: string, code: string): string {
  return execFileSync(process.execPath, [biome, "format", `--stdin-file-path=${name}`], {
    cwd: import.meta.dirname,
    input: code,
    encoding: "utf8",
  });
}

/** What to do about stale generated files: the command to run, and to commit what it writes. */
export function regenerateHint(command: string): string {
  return `run \`${command}\` and commit the result`;
}

/** The names of the files in `dir` whose content differs from `files` (name → content). */
export function staleGeneratedFiles(dir: string, files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([name, content]) => {
      const file = path.join(dir, name);
      return !existsSync(file) || readFileSync(file, "utf8") !== content;
    })
    .map(([name]) => name);
}

export function emitGenerated(
  dir: string,
  files: Record<string, string>,
  { regenerate, ci = process.env.CI }: { regenerate: string; ci?: string | undefined },
): void {
  if (ci && ci !== "false") {
    const stale = staleGeneratedFiles(dir, files);
    if (stale.length > 0) {
      console.error(
        `✖ ${stale.join(", ")} in ${dir} out of date with the spec: ${regenerateHint(regenerate)}`,
      );
      process.exit(1);
    }
    console.log(`✔ ${dir} is up to date with the spec`);
    return;
  }
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  console.log(`▸ wrote ${Object.keys(files).join(", ")} to ${dir}`);
}
