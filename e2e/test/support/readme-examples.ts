// Finds the TypeScript examples of the repository's READMEs, and of the docs site's guide to the
// client, which holds the client README's examples beyond its quick start. Each ```ts block (with
// or without flags, such as the guide's ```ts module) is an example of its own; a block whose
// first line is `// continued` extends the example before it (in the same file), so one example
// may span several blocks.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const CONTINUED = "// continued";

/** Where a line of an example's code stands in its README. */
interface SourceLine {
  readme: string;
  line: number;
}

export interface ReadmeExample {
  /** The README, relative to the repository root. */
  readme: string;
  /** Line of the README where the example's first block starts (its opening fence). */
  line: number;
  code: string;
  /** For each line of `code`, its place in the README. */
  lines: SourceLine[];
}

/** The client's guide on the docs site: the client README's examples and runtimes moved there. */
export const CLIENT_GUIDE = "packages/docs/guides/client.md";

/** The README files of the repository: the root's and those of its packages. */
export function findReadmes(root: string): string[] {
  const dirs = [".", "openapi", "bench", "e2e", "scripts"];
  for (const name of readdirSync(path.join(root, "packages"))) dirs.push(`packages/${name}`);
  return dirs
    .map((dir) => path.join(dir, "README.md"))
    .filter((file) => existsSync(path.join(root, file)));
}

/** The examples of one README's text, in order. */
export function examplesOf(readme: string, text: string): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ts(?:\s+[a-z]+)*\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const start = i;
    const code: string[] = [];
    const places: SourceLine[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ""); i++) {
      code.push((lines[i] ?? "").slice(indent));
      places.push({ readme, line: i + 1 });
    }
    if (i >= lines.length)
      throw new Error(`${readme}:${start + 1}: a \`\`\`ts block is never closed`);
    const previous = examples.at(-1);
    if (code[0]?.trim() === CONTINUED) {
      if (!previous) {
        throw new Error(`${readme}:${start + 1}: "${CONTINUED}" but no example comes before it`);
      }
      previous.code += `\n${code.join("\n")}`;
      previous.lines.push(...places);
    } else {
      examples.push({ readme, line: start + 1, code: code.join("\n"), lines: places });
    }
  }
  return examples;
}
