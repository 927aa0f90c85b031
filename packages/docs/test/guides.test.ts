// Every guide runs as printed. Its shell commands run in order in one bash, with only PATH (a
// folder of curl and jq, nothing else) and PAYMENTS_BASE_URL set, against a sandbox started here
// for the guide (the stateless mock for
// the mock's guide, and for the client's programs); each ```output block is exactly what the command before it printed. Its
// TypeScript blocks are one program, type-checked against the packages and run with Node. And
// the built page shows every block as it is in the guide.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { startMock } from "@org/payments-mock";
import { startTestSandbox } from "@org/payments-testing";
import { afterAll, describe, expect, it } from "vitest";
import { distDir } from "../src/built-paths.ts";
import { escapeHtml, GUIDES } from "../src/guides.ts";
import {
  blocksOf,
  guideMarkdown,
  shellScript,
  shellSteps,
  stepOutputs,
} from "./support/guide-blocks.ts";
import { curlAndJq, installedNpx } from "./support/shell-tools.ts";

const run = promisify(execFile);
const packageDir = path.resolve(import.meta.dirname, "..");
// Inside the package, so that the programs' imports resolve to the workspace's packages.
const work = mkdtempSync(path.join(packageDir, ".guide-programs-"));
// The shell's builtins, curl and jq: what the guides say a reader needs, and no more. One folder
// of the two for every guide of the file.
const shellTools = curlAndJq();
// The guides that run payments-mock's CLI call it through npx: this one runs the installed bin.
const npx = installedNpx(packageDir);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  shellTools.remove();
  npx.remove();
});
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
  "bin/tsc",
);
const PATH = `${path.dirname(process.execPath)}:${process.env.PATH ?? ""}`;

const guides = GUIDES.map((guide) => ({
  ...guide,
  blocks: blocksOf(guideMarkdown(guide.slug), `guides/${guide.slug}.md`),
}));
const withShell = guides.filter((guide) => shellSteps(guide.blocks).length > 0);
/**
 * Files of a project rather than a program: a vitest project's, a browser page's, a module of its
 * own (one the reader's program imports, such as the client guide's `tour`).
 */
const PROJECT_FLAGS = ["vitest", "browser", "module"];
/** A guide's TypeScript program: its ```ts blocks, but for the files of a project. */
const programBlocks = (guide: (typeof guides)[number]) =>
  guide.blocks.filter(
    (block) => block.language === "ts" && !PROJECT_FLAGS.some((flag) => block.flags.includes(flag)),
  );
const withProgram = guides.filter((guide) => programBlocks(guide).length > 0);
const programOf = (guide: (typeof guides)[number]) =>
  programBlocks(guide)
    .map((block) => block.code)
    .join("\n");
const programFile = (slug: string) => path.join(work, `${slug}.ts`);

/** A sandbox (or, for the mock's guide, the stateless mock) for one guide, stopped after it. */
async function serverFor(slug: string) {
  return slug === "mock"
    ? startMock({ port: 0 })
    : startTestSandbox((state) => startMock({ stateful: true, state }));
}

describe("the guides", () => {
  it("are the ones the issue asks for, each with code that runs", () => {
    expect(withShell.map((guide) => guide.slug)).toEqual(
      expect.arrayContaining(["quickstart", "onboarding-curl", "lifecycles", "mock"]),
    );
    expect(withProgram.map((guide) => guide.slug)).toEqual(
      expect.arrayContaining(["onboarding-typescript", "webhooks", "sandbox", "proxy", "client"]),
    );
  });

  it("leave out only the commands that start payments-mock or install the packages", () => {
    for (const guide of guides) {
      for (const block of guide.blocks) {
        const where = `${guide.slug}.md:${block.line}`;
        if (block.flags.includes("server"))
          expect(block.code, where).toMatch(/^npx @org\/payments-mock /);
        if (block.flags.includes("install")) {
          expect(block.code, where).toMatch(/^npm install --save-dev (@org\/payments-[a-z]+ ?)+$/);
        }
      }
    }
  });

  it("show every code block on their page as it is in the guide", () => {
    for (const guide of guides) {
      const page = readFileSync(path.join(distDir, "guides", `${guide.slug}.html`), "utf8");
      for (const block of guide.blocks) {
        expect(page, `${guide.slug}.md:${block.line}`).toContain(escapeHtml(block.code));
      }
    }
  });
});

describe("the guide pages' links", () => {
  it("lead to pages of the site, and to headings those pages have", () => {
    const broken: string[] = [];
    const pages = [...guides.map((guide) => `${guide.slug}.html`), "index.html"];
    for (const name of pages) {
      const html = readFileSync(path.join(distDir, "guides", name), "utf8");
      for (const [, href = ""] of html.matchAll(
        /<(?:a|link|img)\b[^>]*?\s(?:href|src)="([^"]+)"/g,
      )) {
        if (/^(?:[a-z]+:)?\/\//i.test(href) || href.startsWith("mailto:")) continue;
        const [file = "", anchor] = href.split("#");
        const target =
          file === "" ? path.join(distDir, "guides", name) : path.join(distDir, "guides", file);
        if (!existsSync(target)) {
          broken.push(`${name}: ${href}`);
          continue;
        }
        // Redoc's pages route by hash (#/…): only the guides' own anchors are ids of the page.
        if (
          anchor &&
          target.endsWith(".html") &&
          path.dirname(target) === path.join(distDir, "guides")
        ) {
          if (!readFileSync(target, "utf8").includes(` id="${anchor}"`))
            broken.push(`${name}: ${href}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the TypeScript of the guides", () => {
  it("type-checks against the packages, each guide a file of its own", async () => {
    for (const guide of withProgram)
      writeFileSync(programFile(guide.slug), `${programOf(guide)}\n`);
    // A guide's vitest files (run by their own test) are checked each as a file of its own, as
    // vitest runs them, and so are its modules; its browser page's blocks together, as one file.
    const vitestFiles = guides
      .flatMap((guide) => {
        const ofFlag = (flag: string) =>
          guide.blocks.filter((block) => block.language === "ts" && block.flags.includes(flag));
        return [
          ...ofFlag("vitest").map((block, index) => ({
            slug: `${guide.slug}-vitest-${index + 1}`,
            code: block.code,
          })),
          ...ofFlag("module").map((block, index) => ({
            slug: `${guide.slug}-module-${index + 1}`,
            code: block.code,
          })),
          {
            slug: `${guide.slug}-browser`,
            code: ofFlag("browser")
              .map((block) => block.code)
              .join("\n"),
          },
        ];
      })
      .filter(({ code }) => code !== "");
    for (const { slug, code } of vitestFiles) writeFileSync(programFile(slug), `${code}\n`);
    const project = path.join(work, "tsconfig.json");
    writeFileSync(
      project,
      JSON.stringify({
        // The repository's options (tsconfig.base.json has comments: tsc reads it, not JSON.parse).
        extends: path.join(packageDir, "../../tsconfig.base.json"),
        compilerOptions: {
          noEmit: true,
          declaration: false,
          declarationMap: false,
          types: ["node"],
          moduleDetection: "force",
        },
        files: [...withProgram, ...vitestFiles].map((guide) => programFile(guide.slug)),
      }),
    );
    const output = await run(process.execPath, [tsc, "-p", project, "--pretty", "false"]).then(
      () => "",
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(output).toBe("");
  }, 120_000);
});

describe("npx @org/payments-mock", () => {
  it("runs, with npm's npx, the bin the guides' commands run", async () => {
    const args = ["@org/payments-mock", "trigger", "--help"];
    const npm = await run("npx", args, { cwd: work, env: { ...process.env } });
    const installed = await run("npx", args, {
      cwd: work,
      env: { ...process.env, PATH: `${npx.PATH}:${process.env.PATH ?? ""}` },
    });
    expect(npm.stdout).toContain("payments-mock trigger <topic>");
    expect(installed.stdout).toBe(npm.stdout);
  }, 60_000);
});

// After the type check (which writes every program): the guides' commands and programs run at
// once, each with a server (and a shell or a Node) of its own, so that one's waits (a Retry-After,
// say) overlap another's work.
describe.concurrent("the commands of the guides", () => {
  it.for(withShell.map((guide) => [guide.slug, guide] as const))(
    "of guides/%s.md run in order and print what the guide shows",
    { timeout: 180_000 },
    async ([slug, guide], { expect }) => {
      const server = await serverFor(slug);
      // A guide that runs payments-mock's CLI gets the machine's PATH, behind the installed npx.
      const tools = guide.runsNode
        ? { bash: "bash", PATH: `${npx.PATH}:${process.env.PATH ?? ""}` }
        : shellTools;
      try {
        const steps = shellSteps(guide.blocks);
        const { stdout } = await run(tools.bash, ["-c", shellScript(steps)], {
          env: { PATH: tools.PATH, PAYMENTS_BASE_URL: server.url },
          // The files a guide writes (a fixture file, say) go in the temporary folder.
          cwd: work,
          timeout: 120_000,
        }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(`${slug}: ${error.stderr || error.message}\n${error.stdout ?? ""}`);
        });
        const outputs = stepOutputs(stdout);
        expect(outputs).toHaveLength(steps.length);
        steps.forEach(({ block, output }, index) => {
          if (!output) return;
          expect(outputs[index], `guides/${slug}.md:${block.line}`).toEqual(
            output.code.split("\n").filter((line) => line.trim() !== ""),
          );
        });
      } finally {
        await server.stop();
      }
    },
  );
});

describe.concurrent("the TypeScript programs of the guides", () => {
  it.for(withProgram.map((guide) => [guide.slug, guide] as const))(
    "of guides/%s.md runs to its end",
    { timeout: 180_000 },
    async ([slug, guide]) => {
      writeFileSync(programFile(slug), `${programOf(guide)}\n`);
      // The guides that talk to a running sandbox get one here; the proxy's guide (for its
      // upstream) and the client's (whose examples read what the mock's examples hold, such as
      // transactions to list by id) get the stateless mock.
      const server = await serverFor(slug === "proxy" || slug === "client" ? "mock" : slug);
      try {
        await run(process.execPath, [programFile(slug)], {
          cwd: work,
          env: { PATH, PAYMENTS_BASE_URL: server.url },
          timeout: 120_000,
        }).catch((error: { stderr?: string; message: string }) => {
          throw new Error(`${slug}: ${error.stderr || error.message}`);
        });
      } finally {
        await server.stop();
      }
    },
  );
});
