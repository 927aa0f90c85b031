// Packs every published package (the non-private ones under packages/) exactly as
// `changeset publish` would upload it: `workspace:` ranges become real versions.
// Used by `pnpm release:dry-run` and by the consumer test.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const root = path.resolve(import.meta.dirname, "..");

export type PackedPackage = {
  name: string;
  version: string;
  /** Its folder, relative to the repository's root: `packages/client`. */
  folder: string;
  tarball: string;
  files: number;
};
type Manifest = { name: string; version: string; private?: boolean; files?: string[] };

/** The published packages of a workspace: this repository, or a copy of it. */
export function publishedPackages(workspace = root): { dir: string; manifest: Manifest }[] {
  const dir = path.join(workspace, "packages");
  return readdirSync(dir)
    .map((name) => path.join(dir, name))
    .map((pkgDir) => ({ dir: pkgDir, manifest: readJson(path.join(pkgDir, "package.json")) }))
    .filter((pkg): pkg is { dir: string; manifest: Manifest } =>
      Boolean(pkg.manifest && !pkg.manifest.private),
    );
}

export function packPublishedPackages(destination: string, workspace = root): PackedPackage[] {
  mkdirSync(destination, { recursive: true });
  const packages = publishedPackages(workspace);
  // One pnpm packs them all: starting pnpm costs more than packing a package.
  const filters = packages.flatMap(({ manifest }) => ["--filter", manifest.name]);
  const output = execFileSync(
    "pnpm",
    ["--recursive", ...filters, "pack", "--json", "--pack-destination", destination],
    { cwd: workspace, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const packed = new Map(
    (JSON.parse(output) as { name: string; filename: string; files: unknown[] }[]).map(
      (tarball) => [tarball.name, tarball],
    ),
  );
  return packages.map(({ dir, manifest }) => {
    const tarball = packed.get(manifest.name);
    if (tarball === undefined) throw new Error(`pnpm pack made no tarball of ${manifest.name}`);
    return {
      name: manifest.name,
      version: manifest.version,
      folder: path.relative(workspace, dir),
      tarball: path.resolve(dir, tarball.filename),
      files: tarball.files.length,
    };
  });
}

function readJson(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: "string", default: ".release" } } });
  const destination = path.resolve(root, values.out);
  console.log(`▸ packing the published packages into ${path.relative(root, destination)}/`);
  for (const pkg of packPublishedPackages(destination)) {
    console.log(
      `  ${pkg.name}@${pkg.version}  ${pkg.files} files  ${path.relative(root, pkg.tarball)}`,
    );
  }
  console.log("✔ dry run done: nothing was published");
}
