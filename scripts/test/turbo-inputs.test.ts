// Run by `npm test` outside turbo (it reads the whole repository, so no task's cache could hold it).
// Turbo replays a cached pass when none of a task's inputs changed, so a file a task reads but its
// `inputs` miss lets a stale pass through. For every package's `test`: every tracked file of the
// package is an input (README.md, CHANGELOG.md, LICENSE, RESULTS.md, turbo.json and .gitignore
// aside: no test reads them but the spec's, checked below; src/generated/ comes from `generate`,
// whose hash the task includes).
// The spec's tests read nothing outside the spec, and depend on no package. The surface guard's
// tests read the types' and the client's generators and sources, through the builds they depend
// on, and the spec:diff script, the released spec and the changesets, as inputs of their own.
// For `lint` and `test`: every file the package's TypeScript project reads (its own, or another
// folder's, such as a script shared by several packages' tests) is an input of the task, a global
// dependency, or an input or output (dist/, made from those inputs) of a workspace dependency's
// `build`, whose hash the task includes.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { API } from "typescript/unstable/sync";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const turbo = path.join(root, "node_modules/.bin/turbo");

type DryTask = {
  taskId: string;
  task: string;
  directory: string;
  hash: string;
  inputs: Record<string, string>;
  /** Globs relative to the package's folder, such as `dist/**`; null for a task without outputs. */
  outputs: string[] | null;
  dependencies: string[];
};

type DryRun = { tasks: DryTask[]; globalCacheInputs: { files: Record<string, string> } };

/**
 * `turbo run lint test --dry=json` over the whole workspace. A task's hash, inputs and
 * dependencies are the same whichever other tasks or packages a run names, so every test reads its
 * tasks from this one run (and the proxy test compares it with a second one after its change).
 */
function dryRun(): DryRun {
  const output = execFileSync(turbo, ["run", "lint", "test", "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(output);
}

let workspaceRun: DryRun | undefined;
/** The dry run of the repository as it is checked out (the first test to ask makes it). */
function workspace(): DryRun {
  workspaceRun ??= dryRun();
  return workspaceRun;
}

const testTasks = () => workspace().tasks.filter((task) => task.task === "test");

/**
 * Every file, outside node_modules, that each TypeScript project in `dirs` reads (repository
 * paths), as TypeScript 7 (the compiler `lint` runs) lists it: one compiler, through its API, loads
 * every project at once, so the files they share (Node's types, the workspace's sources) are read
 * and parsed once rather than by one `tsc --listFilesOnly` per project.
 */
function projectFiles(dirs: string[]): Map<string, string[]> {
  const api = new API({ cwd: root });
  try {
    const configs = dirs.map((dir) => path.join(root, dir, "tsconfig.json"));
    const snapshot = api.updateSnapshot({ openProjects: configs });
    return new Map(
      dirs.map((dir, index) => {
        const project = snapshot.getProject(configs[index] ?? "");
        if (!project) throw new Error(`TypeScript loaded no project from ${dir}/tsconfig.json`);
        const files = project.program
          .getSourceFileNames()
          .filter((file) => !file.includes("/node_modules/"))
          .map((file) => path.relative(root, file));
        return [dir, files];
      }),
    );
  } finally {
    api.close();
  }
}

/** The repository paths a task hashes: its inputs are relative to its package's folder. */
function inputPaths(task: DryTask): Set<string> {
  return new Set(
    Object.keys(task.inputs).map((input) =>
      path.relative(root, path.join(root, task.directory, input)),
    ),
  );
}

const tracked = (dir: string) =>
  execFileSync("git", ["ls-files", "--", dir], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((file) => path.relative(dir, path.join(root, file)));

const NOT_READ =
  /^(README\.md|CHANGELOG\.md|LICENSE|RESULTS\.md|turbo\.json|\.gitignore)$|^src\/generated\//;

/** Files outside the surface guard that its tests read, as inputs of their own. */
const GUARD_TEST_READS = ["openapi/released/partner-payments.yaml", ".changeset/config.json"];

/** The guarded packages' files the guard reads, covered by the builds its tests depend on. */
const GUARDED_READS = [
  "packages/types/scripts/generate.ts",
  "packages/types/src/index.ts",
  "packages/types/src/enum-check.ts",
  "packages/client/scripts/generate.ts",
  "packages/client/src/facade.ts",
  "packages/client/src/index.ts",
];

/** The files a task's hash covers, and the output globs of the tasks it depends on. */
function covering(
  task: DryTask,
  byId: Map<string, DryTask>,
  seen = new Set<string>(),
): { paths: Set<string>; outputs: string[] } {
  const paths = inputPaths(task);
  const outputs: string[] = [];
  for (const id of task.dependencies) {
    const dependency = byId.get(id);
    if (!dependency || seen.has(id)) continue;
    seen.add(id);
    outputs.push(
      ...(dependency.outputs ?? []).map((glob) => path.join(dependency.directory, glob)),
    );
    const inner = covering(dependency, byId, seen);
    for (const file of inner.paths) paths.add(file);
    outputs.push(...inner.outputs);
  }
  return { paths, outputs };
}

describe("turbo inputs", () => {
  it("cover every file each package's tests read", { timeout: 120_000 }, () => {
    const missing: string[] = [];
    for (const task of testTasks()) {
      const inputs = new Set(Object.keys(task.inputs));
      const own = tracked(path.join(root, task.directory));
      for (const file of own) {
        if (!NOT_READ.test(file) && !inputs.has(file)) missing.push(`${task.taskId}: ${file}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("keep the spec's tests to the spec, its rules and its README among their inputs", {
    timeout: 120_000,
  }, () => {
    const task = testTasks().find((t) => t.taskId === "@org/payments-spec#test");
    expect(task).toBeDefined();
    const inputs = Object.keys(task?.inputs ?? {});
    expect(inputs.filter((input) => input.startsWith("../"))).toEqual([]);
    expect(task?.dependencies.filter((id) => !id.startsWith("@org/payments-spec#"))).toEqual([]);
    for (const file of ["openapi/README.md", "openapi/src/diff/rules.ts"]) {
      expect(inputs, file).toContain(
        path.relative(path.join(root, "openapi"), path.join(root, file)),
      );
    }
  });

  it("cover what the surface guard's tests read in the guarded packages and at the root", {
    timeout: 120_000,
  }, () => {
    const { tasks } = workspace();
    const byId = new Map(tasks.map((task) => [task.taskId, task]));
    const task = byId.get("@org/payments-surface-guard#test");
    expect(task).toBeDefined();
    if (!task) return;
    const own = inputPaths(task);
    for (const file of GUARD_TEST_READS) expect(own, file).toContain(file);
    const { paths } = covering(task, byId);
    for (const file of GUARDED_READS) expect(paths, file).toContain(file);
  });

  it("replay the engine's and the sandbox's tests, its store and HTTP tests among them, after a change to a proxy file", {
    timeout: 120_000,
  }, () => {
    const ids = [
      "@org/payments-engine#test",
      "@org/payments-sandbox#test",
      "@org/payments-mock#test",
    ];
    // The sandbox's store, clock and migration tests are the sandbox's test task's, not the mock's.
    const tasks = new Map(testTasks().map((task) => [task.taskId, task]));
    const storeTests = (id: string) =>
      Object.keys(tasks.get(id)?.inputs ?? {}).filter((input) =>
        /^test\/(stores|postgres|sqlite)\/.*(clock-batch|migration|retention|request-deadlock)/.test(
          input,
        ),
      );
    expect(storeTests("@org/payments-sandbox#test")).toEqual(
      expect.arrayContaining([
        "test/postgres/clock-batch.test.ts",
        "test/postgres/request-deadlock.test.ts",
        "test/postgres/schema-migrations.test.ts",
        "test/sqlite/schema-migrations.test.ts",
        "test/stores/retention.test.ts",
      ]),
    );
    expect(storeTests("@org/payments-mock#test")).toEqual([]);
    // The sandbox's behaviour over HTTP is tested in the sandbox's task; the mock keeps its own.
    const httpTests = (id: string) =>
      Object.keys(tasks.get(id)?.inputs ?? {}).filter((input) =>
        /^test\/(http|memory|sandbox)\/.*\.test\.ts$/.test(input),
      );
    expect(httpTests("@org/payments-sandbox#test")).toEqual(
      expect.arrayContaining([
        "test/http/faults.test.ts",
        "test/http/readiness.test.ts",
        "test/http/test-mode.test.ts",
        "test/memory/document-contract.test.ts",
      ]),
    );
    expect(httpTests("@org/payments-mock#test")).toEqual([]);
    const hashes = (run: DryRun) => {
      const byId = new Map(run.tasks.map((task) => [task.taskId, task.hash]));
      return ids.map((id) => byId.get(id));
    };
    const proxyFile = path.join(root, "packages/mock/src/proxy/hop-by-hop.ts");
    const text = readFileSync(proxyFile, "utf8");
    const before = hashes(workspace());
    let after: Array<string | undefined>;
    try {
      writeFileSync(proxyFile, `${text}// changed by turbo-inputs.test.ts\n`);
      after = hashes(dryRun());
    } finally {
      writeFileSync(proxyFile, text);
    }
    expect(before.every((hash) => hash !== undefined)).toBe(true);
    // The engine's and the sandbox's test tasks hash the same (a cache hit); the mock's does not.
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(after[2]).not.toBe(before[2]);
  });

  it("cover every file a package's TypeScript project reads, for its lint and test", {
    timeout: 240_000,
  }, () => {
    const { tasks, globalCacheInputs } = workspace();
    const byId = new Map(tasks.map((task) => [task.taskId, task]));
    const globals = new Set(Object.keys(globalCacheInputs.files));
    const missing: string[] = [];
    const directories = new Set(
      tasks.filter((t) => t.task === "lint" || t.task === "test").map((t) => t.directory),
    );
    const readByProject = projectFiles([...directories]);
    for (const directory of directories) {
      const read = (readByProject.get(directory) ?? []).filter(
        (file) => !globals.has(file) && !file.includes("/src/generated/"),
      );
      expect(read.length, directory).toBeGreaterThan(0);
      for (const task of tasks.filter(
        (t) => t.directory === directory && (t.task === "lint" || t.task === "test"),
      )) {
        const { paths, outputs } = covering(task, byId);
        for (const file of read) {
          const covered = paths.has(file) || outputs.some((glob) => path.matchesGlob(file, glob));
          if (!covered) missing.push(`${task.taskId}: ${file}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
