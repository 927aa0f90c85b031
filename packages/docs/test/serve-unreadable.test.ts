// A file that the listing shows but that cannot be read when its answer starts (its permissions,
// or a rebuild of `dev` that removed it meanwhile): the answer ends, and the server goes on.
import fs, { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer } from "../src/static-server.ts";

const realCreateReadStream = fs.createReadStream;

/**
 * Makes the read of `unreadable.js` fail as an open refused by the file system would. The test
 * runs as root in CI, where a file's permissions refuse nothing; and the files of the run share
 * their modules (isolate: false), so a module mock would miss a static server already loaded.
 * syncBuiltinESMExports passes the change on to the server's `import { createReadStream }`.
 */
function failReadsOfUnreadable(): void {
  fs.createReadStream = ((file: fs.PathLike, options?: never) => {
    if (!String(file).endsWith("unreadable.js")) return realCreateReadStream(file, options);
    const stream = new PassThrough();
    setImmediate(() =>
      stream.destroy(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" })),
    );
    return stream;
  }) as typeof fs.createReadStream;
  syncBuiltinESMExports();
}

let root: string;
let server: Awaited<ReturnType<typeof startStaticServer>>;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "docs-serve-unreadable-"));
  writeFileSync(path.join(root, "index.html"), "<h1>docs</h1>");
  writeFileSync(path.join(root, "unreadable.js"), "export {};");
  server = await startStaticServer({ root });
  failReadsOfUnreadable();
});

afterAll(async () => {
  fs.createReadStream = realCreateReadStream;
  syncBuiltinESMExports();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a file that cannot be read", () => {
  it("ends its answer short, and the server goes on serving", async () => {
    const read = fetch(new URL("unreadable.js", server.url)).then((answer) => answer.text());
    await expect(read).rejects.toThrow();
    expect(await (await fetch(server.url)).text()).toBe("<h1>docs</h1>");
  });
});
