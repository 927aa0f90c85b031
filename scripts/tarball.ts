// Reads a packed package (a gzipped tar, as `pnpm pack` writes it): its files with their sizes and
// contents' hashes. The pack test checks the file lists; the release rehearsal compares them with
// the last release's and hashes them to know whether a package's contents changed.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export type PackedFile = { path: string; size: number; sha256: string };

const BLOCK = 512;

/** The regular files of a tarball, by their path inside the package (without `package/`). */
export function tarballFiles(tarball: string): PackedFile[] {
  return [...entries(tarball)]
    .map(({ path, body }) => ({
      path,
      size: body.length,
      sha256: createHash("sha256").update(body).digest("hex"),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** One file of the tarball as text (its `package.json`, say); undefined when it has none. */
export function tarballText(tarball: string, file: string): string | undefined {
  for (const entry of entries(tarball)) {
    if (entry.path === file) return entry.body.toString("utf8");
  }
  return undefined;
}

/** The tar's regular files: ustar headers of 512 bytes, each followed by its padded body. */
function* entries(tarball: string): Generator<{ path: string; body: Buffer }> {
  const archive = gunzipSync(readFileSync(tarball));
  for (let offset = 0; offset + BLOCK <= archive.length; ) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return;
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = header[156];
    if (type === 0x30 || type === 0) {
      const full = prefix ? `${prefix}/${name}` : name;
      yield {
        path: full.replace(/^[^/]+\//, ""),
        body: archive.subarray(offset + BLOCK, offset + BLOCK + size),
      };
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
}

function field(header: Buffer, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString("utf8");
}
