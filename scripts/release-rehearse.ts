// `npm run release:rehearse`: a release, rehearsed for real, publishing nothing anywhere but a
// registry of its own. In a temporary copy of the workspace it versions a snapshot of the pending
// changesets (`changeset version --snapshot`), packs the published packages as `changeset publish`
// would, checks the tarballs with publint and attw, publishes them to a Verdaccio it starts on
// 127.0.0.1 (refusing any registry it did not start), installs them into clean projects with npm,
// pnpm, Yarn 4 and Bun, and in each runs a smoke program and a type check; then it compares each
// tarball with the last release's (.release-record.json). Everything it makes is in one
// payments-rehearsal-* folder, removed at the end, on failure and on Ctrl-C too.
//
// --if-changed   rehearse only when the packed contents differ from the last rehearsal's (CI)
// A rehearsal that passes outside CI records its contents' hash in .release-record.json.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type LocalRegistry, publishTarballs, startLocalRegistry } from "./local-registry.ts";
import { type PackedPackage, packPublishedPackages } from "./pack.ts";
import { PARTNER_TOOLS } from "./partner-tools.ts";
import {
  installTools,
  PACKAGE_MANAGERS,
  rehearseConsumer,
  yarnAgeGateRefuses,
} from "./rehearsal-consumers.ts";
import { killAllNow, run, stopAll } from "./rehearsal-processes.ts";
import {
  compareWithRelease,
  contentsHash,
  packageRecord,
  RECORD_FILE,
  readRecord,
  writeRecord,
} from "./release-record.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const begun = performance.now();
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

let work: string | undefined;
let registry: LocalRegistry | undefined;

let cleaning: Promise<void> | undefined;
/** Set when a signal stops the rehearsal: the commands it stops then fail unreported. */
let stoppedBy: NodeJS.Signals | undefined;

/** Stops what the rehearsal started and removes what it made; once, however often it is called. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await stopAll();
    await registry?.close();
    removeWork();
  })();
  return cleaning;
}

function removeWork(): void {
  if (!work) return;
  try {
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
    work = undefined;
  } catch (error) {
    console.error(`✖ could not remove ${work}: ${(error as Error).message}`);
  }
}

// Whatever ends the process (an uncaught error, a closed stdout), nothing is left behind.
process.on("exit", () => {
  killAllNow();
  removeWork();
});
// `on`, not `once`: a second Ctrl-C waits for the same clean-up instead of cutting it short.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stoppedBy = signal;
    console.error(`\n✖ release rehearsal stopped (${signal}): cleaning up`);
    void cleanUp().finally(() => process.exit(128 + constants.signals[signal]));
  });
}

/**
 * A step started now and awaited later: its failure is kept for that await instead of ending the
 * process on the spot, before the clean-up.
 */
function started<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

async function step<T>(label: string, action: () => Promise<T> | T): Promise<T> {
  const since = performance.now();
  console.log(`▸ ${label}…`);
  const result = await action();
  console.log(`✔ ${label} (${seconds(since)})`);
  return result;
}

/** A copy of the workspace's manifests, changesets and packed files, the snapshot versioned in it. */
async function versionSnapshot(folder: string, published: PackedPackage[]): Promise<string> {
  mkdirSync(folder, { recursive: true });
  for (const file of ["package.json", "pnpm-workspace.yaml", ".changeset"]) {
    cpSync(path.join(root, file), path.join(folder, file), { recursive: true });
  }
  // changesets finds its changelog module there.
  symlinkSync(path.join(root, "node_modules"), path.join(folder, "node_modules"));
  const folders = await workspaceFolders();
  const byName = new Map<string, string>();
  for (const dir of folders) {
    mkdirSync(path.join(folder, dir), { recursive: true });
    cpSync(path.join(root, dir, "package.json"), path.join(folder, dir, "package.json"));
    byName.set(manifestOf(path.join(root, dir)).name, dir);
  }
  for (const pkg of published) {
    for (const file of manifestOf(path.join(root, pkg.folder)).files ?? []) {
      const from = path.join(root, pkg.folder, file);
      if (existsSync(from)) cpSync(from, path.join(folder, pkg.folder, file), { recursive: true });
    }
  }
  // pnpm pack writes a `workspace:` range's version from the dependency's installed manifest.
  for (const dir of folders) {
    const manifest = manifestOf(path.join(root, dir));
    const all = {
      ...manifest.dependencies,
      ...manifest.devDependencies,
      ...manifest.peerDependencies,
    };
    for (const [name, range] of Object.entries(all)) {
      const target = byName.get(name);
      if (!range.startsWith("workspace:") || !target) continue;
      const link = path.join(folder, dir, "node_modules", name);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(path.join(folder, target), link);
    }
  }
  const bumps = published.map((pkg) => `"${pkg.name}": patch`).join("\n");
  writeFileSync(
    path.join(folder, ".changeset/release-rehearsal.md"),
    `---\n${bumps}\n---\n\nRehearsal.\n`,
  );
  await run(bin("changeset"), ["version", "--snapshot", "rehearsal"], { cwd: folder });
  return manifestOf(path.join(folder, published[0]?.folder ?? "")).version;
}

type Manifest = {
  name: string;
  version: string;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));

/** The workspace's package folders, relative to the root, as pnpm lists them. */
async function workspaceFolders(): Promise<string[]> {
  const listed = JSON.parse(
    await run("pnpm", ["list", "--recursive", "--depth=-1", "--json"], { cwd: root }),
  ) as { path: string }[];
  return listed.map((pkg) => path.relative(root, pkg.path)).filter((dir) => dir !== "");
}

/** publint and attw (the node16 profile, as each package's check-exports) on each tarball. */
async function lintTarballs(tarballs: PackedPackage[], folder: string): Promise<void> {
  await Promise.all(
    tarballs.flatMap((pkg) => [
      run(bin("publint"), ["run", pkg.tarball, "--level", "warning"], { cwd: folder }),
      run(bin("attw"), [pkg.tarball, "--profile", "node16", "--format", "ascii"], { cwd: folder }),
    ]),
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "if-changed": { type: "boolean", default: false } } });
  work = mkdtempSync(path.join(tmpdir(), "payments-rehearsal-"));
  const record = readRecord();
  const current = packPublishedPackages(path.join(work, "current"));
  const hash = contentsHash(current);
  if (values["if-changed"] && record.rehearsed === hash) {
    console.log(
      `✔ release rehearsal skipped: the packed contents of ${current.length} packages (sha256 ${hash.slice(0, 12)}) are those last rehearsed (.release-record.json)`,
    );
    return 0;
  }
  console.log(
    `▸ release rehearsal of ${current.map((pkg) => pkg.name).join(", ")} (contents sha256 ${hash.slice(0, 12)}, ${record.rehearsed === hash ? "rehearsed before" : "not rehearsed yet"})`,
  );

  const folder = work;
  const npmRegistry = (await run("npm", ["config", "get", "registry"], { cwd: folder })).trim();
  // What needs no snapshot starts at once: the registry, and the tools of Bun's and Yarn's projects.
  const registryUp = started(
    startLocalRegistry(path.join(folder, "registry")).then((local) => {
      registry = local;
      return local;
    }),
  );
  const tools = path.join(folder, "tools");
  const toolsReady = started(
    step(
      `installing Bun ${PARTNER_TOOLS.bun} and Yarn ${PARTNER_TOOLS.yarn} from ${npmRegistry}`,
      () => installTools(tools),
    ),
  );
  const workspace = path.join(folder, "workspace");
  const version = await step("versioning a snapshot in a copy of the workspace", () =>
    versionSnapshot(workspace, current),
  );
  const tarballs = packPublishedPackages(path.join(folder, "tarballs"), workspace);
  console.log(`  ${tarballs.map((pkg) => `${pkg.name}@${pkg.version}`).join(", ")}`);
  const linted = started(
    step("checking the tarballs with publint and attw", () => lintTarballs(tarballs, folder)),
  );
  const local = await step("publishing the snapshot to a local registry", async () => {
    const ours = await registryUp;
    console.log(`  Verdaccio on ${ours.url}`);
    await publishTarballs(ours, tarballs, folder);
    return ours;
  });

  const packages = Object.fromEntries(tarballs.map((pkg) => [pkg.name, version]));
  const ageGate = started(
    toolsReady
      .then(() =>
        yarnAgeGateRefuses(
          path.join(folder, "consumers", "yarn-age-gate"),
          "@org/payments-types",
          version,
          {
            registry: local.url,
            npmRegistry,
            tools,
          },
        ),
      )
      .then(() =>
        console.log(
          "  ✔ yarn without npmPreapprovedPackages: the release is quarantined, as the READMEs say",
        ),
      ),
  );
  const results = await step(
    `installing into clean projects with ${PACKAGE_MANAGERS.join(", ")}; smoke program and type checks in each`,
    () =>
      Promise.all(
        PACKAGE_MANAGERS.map(async (manager) => {
          if (manager === "bun" || manager === "yarn") await toolsReady;
          const since = performance.now();
          const project = path.join(folder, "consumers", manager);
          const result = await rehearseConsumer(manager, project, packages, {
            registry: local.url,
            npmRegistry,
            tools,
          });
          // Removed as soon as it has passed, while the others still run: less to remove at the end.
          await rm(project, { recursive: true, force: true });
          console.log(
            `  ✔ ${manager} ${result.version}: installed, sandbox started, customer created and listed, ${result.tools} MCP tools, types clean under node16 and bundler (${seconds(since)}: install ${result.seconds.install} s, smoke ${result.seconds.smoke} s, types ${result.seconds.types} s)`,
          );
          return result;
        }),
      ),
  );

  await linted;
  await ageGate;

  console.log("▸ compared with the last release (.release-record.json):");
  const now = Object.fromEntries(current.map((pkg) => [pkg.name, packageRecord(pkg)]));
  const comparison = compareWithRelease(now, record.released);
  for (const line of comparison.lines) console.log(`  ${line}`);

  if (!process.env.CI && record.rehearsed !== hash) {
    writeRecord({ ...record, rehearsed: hash });
    console.log(
      `  recorded the rehearsed contents in ${path.relative(root, RECORD_FILE)}: commit it`,
    );
  }
  console.log(
    `✔ release rehearsal passed in ${seconds(begun)}: ${results.length} package managers, nothing published outside 127.0.0.1`,
  );
  return 0;
}

main()
  .then(
    (code) => code,
    (error: unknown) => {
      if (!stoppedBy) {
        console.error(
          `✖ release rehearsal failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return 1;
    },
  )
  .then(async (code) => {
    const since = performance.now();
    await cleanUp();
    if (code === 0) console.log(`  cleaned up in ${seconds(since)}; ${seconds(begun)} in all`);
    process.exit(code);
  });
