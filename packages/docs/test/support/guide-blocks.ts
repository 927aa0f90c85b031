// The code blocks of a guide's Markdown, as the tests run them: every ```sh block in order in one
// shell (as a reader pastes them into one terminal), the ```output block after one being what
// it must print; every ```ts block in order as one program. A ```sh block flagged `server`
// starts a server, which the test starts itself instead; one flagged `install` installs the
// packages, which the test takes from the workspace.
import { readFileSync } from "node:fs";
import path from "node:path";
import { guidesDir } from "../../src/guides.ts";

export interface Block {
  language: string;
  flags: string[];
  code: string;
  /** The line of its opening fence in the guide. */
  line: number;
}

export function guideMarkdown(slug: string): string {
  return readFileSync(path.join(guidesDir, `${slug}.md`), "utf8");
}

/** The fenced code blocks of a Markdown text, in order. */
export function blocksOf(markdown: string, name = "guide"): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i] ?? "");
    if (!open) continue;
    const start = i;
    const code: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) code.push(lines[i] ?? "");
    if (i >= lines.length) throw new Error(`${name}:${start + 1}: a code block is never closed`);
    blocks.push({
      language: open[1] ?? "",
      flags: (open[2] ?? "").trim().split(/\s+/).filter(Boolean),
      code: code.join("\n"),
      line: start + 1,
    });
  }
  return blocks;
}

/** The flags of the shell blocks the test does not run as they are. */
const NOT_RUN = ["server", "install"];

/** The shell steps of a guide: each ```sh block (not a server's) and the output it must print. */
export function shellSteps(blocks: Block[]) {
  const steps: { block: Block; output?: Block }[] = [];
  for (const block of blocks) {
    if (block.language === "sh" && !NOT_RUN.some((flag) => block.flags.includes(flag))) {
      steps.push({ block });
    } else if (block.language === "output") {
      const last = steps.at(-1);
      if (!last || last.output)
        throw new Error(`line ${block.line}: an output block follows no command`);
      last.output = block;
    }
  }
  return steps;
}

/** The separator the test prints between steps, to tell their output apart. */
const STEP_MARK = "@@guide-step@@";

/** One bash script of the steps, each preceded by a mark on a line of its own. */
export function shellScript(steps: { block: Block }[]): string {
  return [
    "set -euo pipefail",
    ...steps.flatMap(({ block }) => [`printf '\\n%s\\n' '${STEP_MARK}'`, block.code]),
  ].join("\n");
}

/** The printed lines of each step (empty lines dropped), from the script's stdout. */
export function stepOutputs(stdout: string): string[][] {
  return stdout
    .split(`${STEP_MARK}\n`)
    .slice(1)
    .map((part) =>
      part
        .split("\n")
        .map((line) => line.trimEnd())
        .filter((line) => line !== ""),
    );
}
