// Run by `npm test` outside turbo. The parts of `npm run release:rehearse` that decide something:
// the local registry publishes only to itself and refuses any other; the contents' hash that lets
// CI skip a rehearsal is the same for the same contents; and the comparison with the last
// release names added and removed files and a size that moved beyond the threshold. (The whole
// rehearsal runs in CI whenever the packed contents differ from the last rehearsed ones.)
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalRegistry, publishTarballs, startLocalRegistry } from "../local-registry.ts";
import type { PackedPackage } from "../pack.ts";
import {
  compareWithRelease,
  contentsHash,
  type PackageRecord,
  packageRecord,
} from "../release-record.ts";

const work = mkdtempSync(path.join(tmpdir(), "payments-rehearsal-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A package of one file, packed, with its manifest's fields in the order given. */
function tinyPackage(name: string, fields: object = {}, folder = name): PackedPackage {
  const dir = path.join(work, folder.replace("/", "+"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", files: ["index.js"], ...fields }),
  );
  writeFileSync(path.join(dir, "index.js"), "export const answer = 42;\n");
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: dir,
      encoding: "utf8",
    }),
  );
  return {
    name,
    version: "1.0.0",
    folder: dir,
    tarball: path.join(dir, packed.filename),
    files: 2,
  };
}

/**
 * GET on a connection of its own: on a loaded machine, a pooled keep-alive connection can be closed
 * by the registry just as it is reused (ECONNRESET).
 */
async function registryGet(url: URL): Promise<{ status: number; body: string }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(url, { agent: false }, resolve).on("error", reject);
  });
  let body = "";
  response.setEncoding("utf8");
  for await (const chunk of response) body += chunk;
  return { status: response.statusCode ?? 0, body };
}

describe("the rehearsal's local registry", () => {
  let registry: LocalRegistry;
  beforeAll(async () => {
    registry = await startLocalRegistry(path.join(work, "registry"));
  });
  afterAll(() => registry?.close());

  it("listens on 127.0.0.1 and takes a publish", async () => {
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await publishTarballs(registry, [tinyPackage("@org/rehearsal-tiny")], work);
    const answer = await registryGet(new URL("@org%2frehearsal-tiny", registry.url));
    const packument = JSON.parse(answer.body) as { versions: Record<string, unknown> };
    expect(Object.keys(packument.versions)).toEqual(["1.0.0"]);
  });

  it("refuses a registry it did not start, even one that answers like it", async () => {
    const impostor = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ username: "rehearsal-000000000000" }));
    });
    impostor.listen(0, "127.0.0.1");
    await once(impostor, "listening");
    try {
      const url = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}/`;
      await expect(registry.proveOurs(url)).rejects.toThrow(
        /refusing to publish: .* is not the registry this rehearsal started/,
      );
      await expect(registry.proveOurs("https://registry.npmjs.org/")).rejects.toThrow(
        /refusing to publish/,
      );
    } finally {
      impostor.close();
    }
  });

  it("refuses a package whose publishConfig names another registry, publishing nothing", async () => {
    const elsewhere = tinyPackage("@org/rehearsal-elsewhere", {
      publishConfig: { registry: "https://registry.npmjs.org/" },
    });
    await expect(publishTarballs(registry, [elsewhere], work)).rejects.toThrow(
      /refusing to publish @org\/rehearsal-elsewhere: its publishConfig\.registry/,
    );
    const answer = await registryGet(new URL("@org%2frehearsal-elsewhere", registry.url));
    expect(answer.status).toBe(404);
  });
});

describe("the record of the packed packages", () => {
  // The published packages, packed for the run (test/packed-packages.ts).
  const packed = inject("packedPackages");

  it("hashes the same contents to the same hash: a package.json by its data, not its keys' order", () => {
    const dependencies = { a: "1.0.0", b: "2.0.0" };
    const one = tinyPackage("@org/tiny", { dependencies }, "one");
    const other = tinyPackage("@org/tiny", { dependencies: { b: "2.0.0", a: "1.0.0" } }, "other");
    const changed = tinyPackage(
      "@org/tiny",
      { dependencies: { a: "1.0.1", b: "2.0.0" } },
      "changed",
    );
    expect(contentsHash([other])).toBe(contentsHash([one]));
    expect(contentsHash([changed])).not.toBe(contentsHash([one]));
    expect(contentsHash(packed.slice(1))).not.toBe(contentsHash(packed));
  });

  it("compares with the last release: files added and removed, a size beyond ±10 %", () => {
    const now = Object.fromEntries(packed.map((pkg) => [pkg.name, packageRecord(pkg)]));
    const [name = "", current] = Object.entries(now)[0] ?? [];
    const files = { ...current?.files, "dist/gone.mjs": 10 } as Record<string, number>;
    delete files.LICENSE;
    const released: Record<string, PackageRecord> = {
      ...now,
      [name]: { ...(current as PackageRecord), version: "0.0.1", files },
    };
    const { lines, notable } = compareWithRelease(now, { version: "0.0.1", packages: released });
    expect(notable).toBe(true);
    expect(lines).toContain(`  + LICENSE (${current?.files.LICENSE} bytes)`);
    expect(lines).toContain("  - dist/gone.mjs (10 bytes)");

    const halved = Object.fromEntries(
      Object.entries(current?.files ?? {}).map(([file, size]) => [file, size * 2]),
    );
    const smaller = compareWithRelease(now, {
      version: "0.0.1",
      packages: { ...now, [name]: { ...(current as PackageRecord), files: halved } },
    });
    expect(smaller.lines.find((line) => line.startsWith(name))).toMatch(
      /\(-50\.0 %\), more than ±10 %/,
    );

    const unchanged = compareWithRelease(now, { version: "0.0.1", packages: now });
    expect(unchanged.notable).toBe(false);
  });

  it("says when no release is recorded yet", () => {
    expect(compareWithRelease({}, null)).toEqual({
      lines: ["no release recorded yet: nothing to compare the tarballs with"],
      notable: false,
    });
  });
});
