// The clean consumer projects of the release rehearsal: one per package manager (npm, pnpm, Yarn 4
// with Plug'n'Play, its default, and Bun), each installing the four packages from the local
// registry as a partner's project installs them from the public one (our scope from the local
// registry, every other package from the machine's npm registry, through each tool's own cache),
// then running the smoke program and type-checking a partner's integration under
// `moduleResolution` node16 and bundler. The programs are the e2e suite's fixtures.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PARTNER_TOOLS } from "./partner-tools.ts";
import { cleanEnv, run } from "./rehearsal-processes.ts";

const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.join(root, "e2e/fixtures");
/** The e2e suite's integration of all the packages, its tsconfigs, and the smoke program. */
const FIXTURES = [
  "consumer.ts",
  "browser.ts",
  "require.cts",
  "tsconfig.node16.json",
  "tsconfig.bundler.json",
  "smoke.mjs",
];
const TSC = path.join(root, "node_modules/.bin/tsc");

export const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "bun"] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

type Setting = {
  /** The local registry, for our scope only. */
  registry: string;
  /** The machine's npm registry, for everything else. */
  npmRegistry: string;
  /** Where `bun` and `@yarnpkg/cli-dist` are installed. */
  tools: string;
};

/** What a consumer saw: its tool's version, the MCP tools listed, and each phase's seconds. */
export type ConsumerResult = {
  manager: PackageManager;
  version: string;
  tools: number;
  seconds: { install: number; smoke: number; types: number };
};

const since = (start: number) => Math.round((performance.now() - start) / 100) / 10;

export async function rehearseConsumer(
  manager: PackageManager,
  folder: string,
  packages: Record<string, string>,
  setting: Setting,
): Promise<ConsumerResult> {
  mkdirSync(folder, { recursive: true });
  for (const file of FIXTURES) copyFileSync(path.join(fixtures, file), path.join(folder, file));
  const dependencies: Record<string, string> = {
    ...packages,
    "@types/node": PARTNER_TOOLS["@types/node"],
  };
  // Plug'n'Play needs the TypeScript that Yarn patches for it; the others use the repository's.
  if (manager === "yarn") dependencies.typescript = PARTNER_TOOLS.typescriptForYarn;
  const manifest = {
    name: `rehearsal-${manager}`,
    private: true,
    type: "module",
    dependencies,
    scarfSettings: { enabled: false },
  };
  writeFileSync(path.join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const tool = tools(manager, setting);
  tool.configure(folder);
  const version = (await run(tool.command, [...tool.prefix, "--version"], { cwd: folder })).trim();
  const start = performance.now();
  await run(tool.command, [...tool.prefix, ...tool.install], { cwd: folder });
  const install = since(start);

  // The smoke program and the type checks, side by side: neither needs the other.
  const [smoke, types] = await Promise.all([
    timed(() => smokeTest(manager, tool, folder)),
    timed(() =>
      Promise.all(
        ["node16", "bundler"].map((mode) => tool.typeCheck(folder, `tsconfig.${mode}.json`)),
      ),
    ),
  ]);
  return {
    manager,
    version,
    tools: smoke.result.length,
    seconds: { install, smoke: smoke.seconds, types: types.seconds },
  };
}

/** Runs the smoke program; the names of the MCP tools it listed. */
async function smokeTest(manager: PackageManager, tool: Tool, folder: string): Promise<string[]> {
  const smoke = JSON.parse(await tool.node(folder, ["smoke.mjs"])) as {
    created: string;
    found: boolean;
    tools: string[];
  };
  if (smoke.created !== "rehearsal@example.com" || !smoke.found) {
    throw new Error(
      `${manager}: the smoke program did not create and find its customer: ${JSON.stringify(smoke)}`,
    );
  }
  if (!smoke.tools.includes("createCustomer")) {
    throw new Error(
      `${manager}: payments-mcp listed no createCustomer tool: ${smoke.tools.join(", ")}`,
    );
  }
  return smoke.tools;
}

async function timed<T>(action: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const start = performance.now();
  const result = await action();
  return { result, seconds: since(start) };
}

type Tool = {
  command: string;
  /** Arguments before the tool's own (the script, for a tool run by Node). */
  prefix: string[];
  install: string[];
  configure: (folder: string) => void;
  /** Runs Node on a file of the project, as the tool runs a partner's program. */
  node: (folder: string, args: string[]) => Promise<string>;
  typeCheck: (folder: string, tsconfig: string) => Promise<string>;
};

function tools(manager: PackageManager, setting: Setting): Tool {
  const node = (folder: string, args: string[]) => run(process.execPath, args, { cwd: folder });
  const typeCheck = (folder: string, tsconfig: string) =>
    run(TSC, ["-p", tsconfig], { cwd: folder });
  const npmrc = (folder: string) =>
    writeFileSync(path.join(folder, ".npmrc"), `@org:registry=${setting.registry}\n`);
  switch (manager) {
    case "npm":
      return {
        command: "npm",
        prefix: [],
        install: ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline"],
        configure: npmrc,
        node,
        typeCheck,
      };
    case "pnpm":
      return {
        command: "pnpm",
        prefix: [],
        // Under CI pnpm wants a lockfile by default; a partner's first install writes one.
        install: ["install", "--prefer-offline", "--no-frozen-lockfile", "--reporter=silent"],
        configure: npmrc,
        node,
        typeCheck,
      };
    case "yarn": {
      const yarn = path.join(setting.tools, "node_modules/@yarnpkg/cli-dist/bin/yarn.js");
      const yarnRun = (folder: string, args: string[]) =>
        run(process.execPath, [yarn, ...args], { cwd: folder, env: yarnEnv() });
      return {
        command: process.execPath,
        prefix: [yarn],
        install: ["install"],
        configure: (folder) =>
          writeFileSync(
            path.join(folder, ".yarnrc.yml"),
            [
              `npmRegistryServer: "${setting.npmRegistry.replace(/\/$/, "")}"`,
              "npmScopes:",
              "  org:",
              `    npmRegistryServer: "${setting.registry.replace(/\/$/, "")}"`,
              'unsafeHttpWhitelist: ["127.0.0.1"]',
              // What the READMEs tell a team: our releases pass Yarn's age gate at once.
              'npmPreapprovedPackages: ["@org/*"]',
              "enableTelemetry: false",
              "enableImmutableInstalls: false",
              "",
            ].join("\n"),
          ),
        node: (folder, args) => yarnRun(folder, ["node", ...args]),
        typeCheck: (folder, tsconfig) => yarnRun(folder, ["tsc", "-p", tsconfig]),
      };
    }
    case "bun":
      return {
        command: path.join(setting.tools, "node_modules/.bin/bun"),
        prefix: [],
        install: ["install", "--no-progress"],
        configure: (folder) =>
          writeFileSync(
            path.join(folder, "bunfig.toml"),
            [
              "[install]",
              `registry = "${setting.npmRegistry}"`,
              "[install.scopes]",
              `"@org" = "${setting.registry}"`,
              "",
            ].join("\n"),
          ),
        node,
        typeCheck,
      };
  }
}

/**
 * What the package READMEs tell Yarn users, checked on the release just published: without
 * `npmPreapprovedPackages`, Yarn 4's default age gate refuses a version published minutes ago.
 */
export async function yarnAgeGateRefuses(
  folder: string,
  name: string,
  version: string,
  setting: Setting,
): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const manifest = {
    name: "rehearsal-yarn-age-gate",
    private: true,
    dependencies: { [name]: version },
  };
  writeFileSync(path.join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    path.join(folder, ".yarnrc.yml"),
    [
      `npmRegistryServer: "${setting.npmRegistry.replace(/\/$/, "")}"`,
      "npmScopes:",
      "  org:",
      `    npmRegistryServer: "${setting.registry.replace(/\/$/, "")}"`,
      'unsafeHttpWhitelist: ["127.0.0.1"]',
      "enableTelemetry: false",
      "enableImmutableInstalls: false",
      "",
    ].join("\n"),
  );
  const yarn = path.join(setting.tools, "node_modules/@yarnpkg/cli-dist/bin/yarn.js");
  const outcome = await run(process.execPath, [yarn, "install"], {
    cwd: folder,
    env: yarnEnv(),
  }).then(
    () => "installed",
    (error: Error) => error.message,
  );
  if (!/quarantine/i.test(outcome)) {
    throw new Error(
      `Yarn ${PARTNER_TOOLS.yarn} did not quarantine ${name}@${version}, published just now, as the READMEs say it does: ${outcome}`,
    );
  }
}

/** Yarn's environment: no progress bars in a log, and no Corepack between it and Node. */
function yarnEnv(): NodeJS.ProcessEnv {
  return cleanEnv({ YARN_ENABLE_PROGRESS_BARS: "false", COREPACK_ENABLE_STRICT: "0" });
}

/** Installs the tools the consumers need but npm and pnpm: Bun and Yarn, from the npm registry. */
export async function installTools(folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "package.json"), '{ "private": true }\n');
  await run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefer-offline",
      `bun@${PARTNER_TOOLS.bun}`,
      `@yarnpkg/cli-dist@${PARTNER_TOOLS.yarn}`,
    ],
    { cwd: folder },
  );
}
