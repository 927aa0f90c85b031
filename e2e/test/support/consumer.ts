// The consumer project the e2e suite installs the packed packages into (see consumer-setup.ts),
// and the tools installed beside it: Node lines, TypeScript compilers and other runtimes.
import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { PARTNER_TOOLS } from "../../../scripts/partner-tools.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The temporary folder that holds the consumer project (`app/`) and the tools (`aside/`). */
    consumerWork: string;
  }
}

/** The Node lines each published package declares in `engines`, each one tested. */
export const NODE_LINES = { "types and client": [22, 24, 26], mock: [24, 26] } as const;
export const ENGINES = {
  "@org/payments-types": ">=22",
  "@org/payments-client": ">=22",
  "@org/payments-mock": ">=24.18",
};
/** The compilers a partner may type-check with; 7 is the native one. */
export const TYPESCRIPTS = ["5.9.3", "6.0.3", "7.0.2"] as const;
/** The other runtimes the client is run on, each from the npm registry (binaries inside). */
export const RUNTIMES = {
  bun: PARTNER_TOOLS.bun,
  deno: "2.9.6",
  miniflare: "4.20260730.0",
} as const;
/** What a consumer of the mock tests with (the mock README's test examples import it). */
export const VITEST = "5.1.1";
/** The other test runner a front end runs the mock's MSW handlers in (the MSW guide names it). */
const JEST = "30.5.2";
/** The optional peer a partner installs for the mock's MSW handlers (its README's example imports it). */
export const MSW = "3.0.5";
export const TYPES_NODE = PARTNER_TOOLS["@types/node"];

/** The Node line running this suite: it is not installed again. */
const OWN_NODE_LINE = Number(process.versions.node.split(".")[0]);
/** The workspace's own TypeScript (e2e's devDependency): a version of TYPESCRIPTS it has is not installed again. */
const OWN_TYPESCRIPT = path.dirname(
  createRequire(import.meta.url).resolve("typescript/package.json"),
);
const OWN_TYPESCRIPT_VERSION: string = createRequire(import.meta.url)(
  "typescript/package.json",
).version;

/**
 * Node's binary package for this machine, as the `node` package's install script picks it, named
 * directly: `node@22` would run a second npm install from its postinstall.
 */
const NODE_BINARY_PACKAGE = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;

/** Every tool installed in `aside/`, as package specs: what this suite's own Node and TypeScript do not cover. */
export function asideTools(): string[] {
  return [
    ...NODE_LINES["types and client"]
      .filter((major) => major !== OWN_NODE_LINE)
      .map((major) => `node${major}@npm:${NODE_BINARY_PACKAGE}@${major}`),
    ...TYPESCRIPTS.filter((version) => version !== OWN_TYPESCRIPT_VERSION).map(
      (version) => `typescript-${version}@npm:typescript@${version}`,
    ),
    ...Object.entries(RUNTIMES).map(([name, version]) => `${name}@${version}`),
    `jest@${JEST}`,
  ];
}

export function consumer() {
  const work = inject("consumerWork");
  const app = path.join(work, "app");
  const aside = path.join(work, "aside");
  return {
    work,
    app,
    aside,
    node: (major: number) =>
      major === OWN_NODE_LINE
        ? process.execPath
        : path.join(aside, `node_modules/node${major}/bin/node`),
    tsc: (version: string) =>
      version === OWN_TYPESCRIPT_VERSION
        ? path.join(OWN_TYPESCRIPT, "bin/tsc")
        : path.join(aside, `node_modules/typescript-${version}/bin/tsc`),
    bin: (name: string) => path.join(aside, "node_modules/.bin", name),
    /**
     * Bun's binary, from the package for this platform beside `bun`: pnpm runs no install scripts,
     * and Bun's (which would copy it into `bun`) costs more than the rest of the tools' install.
     */
    bun: () =>
      createRequire(`${realpathSync(path.join(aside, "node_modules/bun"))}/`).resolve(
        `@oven/bun-${process.platform}-${process.arch}/bin/bun`,
      ),
    module: (name: string) => path.join(aside, "node_modules", name),
  };
}

const execFileAsync = promisify(execFile);

/** Runs a command to its end; its stdout, or an error with its output. */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      ...options,
      env: { ...process.env, npm_config_update_notifier: "false", ...options.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} failed:\n${failure.stdout ?? ""}${failure.stderr ?? failure.message}`,
    );
  }
}

/**
 * npm install in `cwd`, as a partner's project installs, with Scarf's install-time telemetry off
 * (see the mock's README); packages npm's cache holds are not asked for again.
 */
export function npmInstall(cwd: string): Promise<string> {
  return run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    {
      cwd,
      env: { SCARF_ANALYTICS: "false" },
    },
  );
}

/**
 * The tools into `cwd` with pnpm: hard links from its store, where npm would unpack every binary
 * (some 700 MB) again on each run. pnpm runs none of their install scripts: Deno and workerd find
 * their platform's binary when they start, and Bun is run from its platform's package (`bun()`).
 */
export function pnpmAdd(cwd: string, specs: string[]): Promise<string> {
  return run("pnpm", ["add", "--prefer-offline", "--loglevel=error", ...specs], {
    cwd,
    env: { npm_config_update_notifier: "false" },
  });
}

/** What one `tsc --build` said about each project it checked, and about none in particular. */
export interface BuildReport {
  /** Each project checked, as an absolute path to its tsconfig, with the diagnostics printed for it. */
  projects: Map<string, string[]>;
  /** What was printed before any project's build: a bad command line or tsconfig. */
  general: string[];
  exitCode: number;
}

/**
 * Type-checks `projects` (tsconfig files or folders) in one `tsc --build` of the compiler at
 * `tscPath`: one process, where a compiler started once per project costs as much again in start
 * and warm-up, and each check is as `tsc -p` makes it. `--force` checks every project even where a
 * previous build left its record; `--verbose` names each project before its diagnostics, so that
 * each is told apart.
 */
export async function typeCheckProjects(
  tscPath: string,
  projects: string[],
  cwd: string,
): Promise<BuildReport> {
  const args = [tscPath, "--build", "--force", "--verbose", "--pretty", "false", ...projects];
  const { stdout, exitCode } = await execFileAsync(process.execPath, args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ stdout, exitCode: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number; message: string }) => ({
      stdout: `${error.stdout ?? ""}${error.stderr ?? ""}` || error.message,
      exitCode: typeof error.code === "number" ? error.code : -1,
    }),
  );
  const report: BuildReport = { projects: new Map(), general: [], exitCode };
  let current = report.general;
  for (const line of stdout.split("\n")) {
    const building = / - Building project '(.+)'\.\.\.$/.exec(line);
    if (building) {
      current = [];
      report.projects.set(path.resolve(cwd, building[1] ?? ""), current);
    } else if (
      line.trim() !== "" &&
      !/ - (Projects in this build:|Project '.+' is )/.test(line) &&
      !/^ {4}\* /.test(line)
    ) {
      current.push(line);
    }
  }
  return report;
}

/** The tsconfig a `tsc --build` argument names: the file, or the tsconfig.json in the folder. */
export function tsconfigOf(project: string, cwd: string): string {
  const at = path.resolve(cwd, project);
  return at.endsWith(".json") ? at : path.join(at, "tsconfig.json");
}
