// A file that the listing shows but that cannot be read when its answer starts (its permissions,
// or a rebuild of `dev` that removed it meanwhile): the answer ends, and the server goes on.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startStaticServer } from "../src/static-server.ts";

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    // The read fails as an open refused by the file system would.
    createReadStream: (file: string) => {
      if (!String(file).endsWith("unreadable.js")) return fs.createReadStream(file);
      const stream = new PassThrough();
      setImmediate(() =>
        stream.destroy(Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" })),
      );
      return stream;
    },
  };
});

let root: string;
let server: Awaited<ReturnType<typeof startStaticServer>>;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "docs-serve-unreadable-"));
  writeFileSync(path.join(root, "index.html"), "<h1>docs</h1>");
  writeFileSync(path.join(root, "unreadable.js"), "export {};");
  server = await startStaticServer({ root });
});

afterAll(async () => {
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
