// Writes the files a package generates from the spec. Generated files are committed, so under
// CI they are only compared with what the spec gives: a stale file fails the run with the
// command that regenerates it, instead of being silently rewritten before the tests see it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

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
        `✖ ${stale.join(", ")} in ${dir} out of date with the spec: run \`${regenerate}\` and commit the result`,
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
