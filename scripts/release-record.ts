// The committed record of the packed packages (.release-record.json): the files and sizes of each
// package's tarball as last released, which a rehearsal compares the new ones with, and the hash
// of the packed contents last rehearsed, which tells CI whether there is anything to rehearse.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type PackedPackage, packPublishedPackages } from "./pack.ts";
import { tarballFiles, tarballText } from "./tarball.ts";

const root = path.resolve(import.meta.dirname, "..");
export const RECORD_FILE = path.join(root, ".release-record.json");

/** One package's tarball: its size packed, and each file's size. */
export type PackageRecord = { version: string; packed: number; files: Record<string, number> };

export type ReleaseRecord = {
  /** The tarballs of the last release (`--release`), or null before the first. */
  released: { version: string; packages: Record<string, PackageRecord> } | null;
  /** The hash of the packed contents of the last rehearsal that passed, or null. */
  rehearsed: string | null;
};

/** A package's size changes by more than this share of the last release's: the report says so. */
const SIZE_THRESHOLD = 0.1;

export function readRecord(): ReleaseRecord {
  if (!existsSync(RECORD_FILE)) return { released: null, rehearsed: null };
  return JSON.parse(readFileSync(RECORD_FILE, "utf8"));
}

export function writeRecord(record: ReleaseRecord): void {
  writeFileSync(RECORD_FILE, `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * One hash of every file of every package, by name and path: equal contents, equal hash. The
 * package.json counts by its data, its keys in order: pnpm pack writes the `workspace:`
 * dependencies it resolves in no fixed order.
 */
export function contentsHash(packed: PackedPackage[]): string {
  const hash = createHash("sha256");
  for (const pkg of [...packed].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    for (const file of tarballFiles(pkg.tarball)) {
      const manifest =
        file.path === "package.json" ? tarballText(pkg.tarball, file.path) : undefined;
      const digest = manifest ? sha256(canonicalJson(JSON.parse(manifest))) : file.sha256;
      hash.update(`${pkg.name}\0${file.path}\0${digest}\n`);
    }
  }
  return hash.digest("hex");
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function packageRecord(pkg: PackedPackage): PackageRecord {
  const files = Object.fromEntries(tarballFiles(pkg.tarball).map((file) => [file.path, file.size]));
  return { version: pkg.version, packed: statSync(pkg.tarball).size, files };
}

/**
 * What changed in each package since the last release: files added and removed, and its size when
 * it moved by more than the threshold. Lines for a person; `notable` when any of them is a change.
 */
export function compareWithRelease(
  current: Record<string, PackageRecord>,
  released: ReleaseRecord["released"],
): { lines: string[]; notable: boolean } {
  if (!released) {
    return {
      lines: ["no release recorded yet: nothing to compare the tarballs with"],
      notable: false,
    };
  }
  const lines: string[] = [];
  let notable = false;
  for (const [name, now] of Object.entries(current)) {
    const before = released.packages[name];
    if (!before) {
      lines.push(`${name}: new package, ${now.packed} bytes packed, ${count(now.files)} files`);
      notable = true;
      continue;
    }
    const added = Object.keys(now.files).filter((file) => !(file in before.files));
    const removed = Object.keys(before.files).filter((file) => !(file in now.files));
    const [sizeBefore, sizeNow] = [total(before.files), total(now.files)];
    const change = sizeBefore === 0 ? 0 : (sizeNow - sizeBefore) / sizeBefore;
    const beyond = Math.abs(change) > SIZE_THRESHOLD;
    const size = `${sizeBefore} → ${sizeNow} bytes unpacked (${percent(change)})`;
    lines.push(
      `${name} ${before.version} → ${now.version}: ${size}${beyond ? `, more than ±${SIZE_THRESHOLD * 100} %` : ""}`,
    );
    for (const file of added) lines.push(`  + ${file} (${now.files[file]} bytes)`);
    for (const file of removed) lines.push(`  - ${file} (${before.files[file]} bytes)`);
    if (added.length > 0 || removed.length > 0 || beyond) notable = true;
  }
  for (const name of Object.keys(released.packages)) {
    if (!(name in current)) {
      lines.push(`${name}: released before, not packed now`);
      notable = true;
    }
  }
  return { lines, notable };
}

const count = (files: Record<string, number>) => Object.keys(files).length;
const total = (files: Record<string, number>) =>
  Object.values(files).reduce((sum, size) => sum + size, 0);
const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)} %`;

// `node scripts/release-record.ts`, run by `npm run release` once the packages are published:
// records their tarballs as the last release, which the next rehearsal compares with.
if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = mkdtempSync(path.join(tmpdir(), "payments-release-record-"));
  try {
    const packed = packPublishedPackages(folder);
    const record = readRecord();
    const version = packed[0]?.version ?? "";
    const packages = Object.fromEntries(packed.map((pkg) => [pkg.name, packageRecord(pkg)]));
    writeRecord({ ...record, released: { version, packages } });
    console.log(
      `✔ recorded the tarballs of ${version} as the last release in ${path.relative(root, RECORD_FILE)}: commit it`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
