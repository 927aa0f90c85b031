import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOnConfiguredPort, startStaticServer } from "../src/static-server.ts";

let root: string;
let server: Awaited<ReturnType<typeof startStaticServer>>;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "docs-serve-"));
  root = path.join(dir, "site");
  mkdirSync(path.join(root, "assets"), { recursive: true });
  writeFileSync(path.join(root, "index.html"), "<h1>docs</h1>");
  writeFileSync(path.join(root, "assets", "app.js"), "export {};");
  mkdirSync(path.join(root, "guides"));
  writeFileSync(path.join(root, "guides", "index.html"), "<h1>guides</h1>");
  writeFileSync(path.join(dir, "secret.txt"), "outside the root");
  mkdirSync(path.join(dir, "private"));
  writeFileSync(path.join(dir, "private", "key.txt"), "outside the root");
  writeFileSync(path.join(root, ".env"), "SECRET=1");
  mkdirSync(path.join(root, ".git"));
  writeFileSync(path.join(root, ".git", "config"), "[core]");
  symlinkSync(path.join(dir, "secret.txt"), path.join(root, "linked.txt"));
  symlinkSync(path.join(dir, "private"), path.join(root, "linked-dir"));
  symlinkSync(path.join(root, "assets", "app.js"), path.join(root, "app-link.js"));
  server = await startStaticServer({ root });
});

afterAll(async () => {
  await server?.close();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

/** A raw request, so that `..` reaches the server as written. */
function get(rawPath: string, method = "GET") {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; type: string | undefined; body: string }>(
    (resolve, reject) => {
      const req = request({ hostname, port, path: rawPath, method }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("startStaticServer", () => {
  it("listens on 127.0.0.1 on a free port", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(server.url).port).not.toBe("0");
  });

  it("serves index.html for / and files with their content type", async () => {
    expect(await get("/")).toEqual({
      status: 200,
      type: "text/html; charset=utf-8",
      body: "<h1>docs</h1>",
    });
    const script = await get("/assets/app.js?v=1");
    expect(script.status).toBe(200);
    expect(script.type).toBe("text/javascript; charset=utf-8");
  });

  it("answers 404 for missing files and for paths outside its root", async () => {
    expect((await get("/missing.js")).status).toBe(404);
    expect((await get("/../secret.txt")).status).toBe(404);
    expect((await get("/%2e%2e/secret.txt")).status).toBe(404);
  });

  it("answers 408 to a client that never finishes its request, and serves others meanwhile", async () => {
    const { hostname, port } = new URL(server.url);
    const slow = connect(Number(port), hostname);
    slow.write("GET / HTTP/1.1\r\nHost: x\r\n");
    const answer = new Promise<string>((resolve) => {
      let text = "";
      slow.setEncoding("utf8");
      slow.on("data", (chunk) => {
        text += chunk;
      });
      slow.on("close", () => resolve(text));
    });
    expect((await get("/")).status).toBe(200);
    // Node's own limits would keep it open for 60 to 90 seconds.
    expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 40_000);

  it("redirects a folder named without its trailing slash to it, so that its links work", async () => {
    const { hostname, port } = new URL(server.url);
    const location = (rawPath: string) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        request({ hostname, port, path: rawPath }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location });
        })
          .on("error", reject)
          .end();
      });
    expect(await location("/guides?x=1")).toEqual({ status: 301, location: "./guides/?x=1" });
    expect(await location("/.//guides")).toEqual({ status: 301, location: "./guides/" });
    expect(await get("/guides/")).toMatchObject({ status: 200, body: "<h1>guides</h1>" });
    expect((await get("/assets")).status).toBe(404);
  });

  it("serves no dotfile nor anything in a dot folder", async () => {
    expect((await get("/.env")).status).toBe(404);
    expect((await get("/%2eenv")).status).toBe(404);
    expect((await get("/.git/config")).status).toBe(404);
    expect((await get("/assets/../.git/config")).status).toBe(404);
  });

  it("follows no symbolic link out of its root, and serves those that stay inside", async () => {
    expect((await get("/linked.txt")).status).toBe(404);
    expect((await get("/linked-dir/key.txt")).status).toBe(404);
    expect(await get("/app-link.js")).toMatchObject({ status: 200, body: "export {};" });
  });

  it("answers 405 to methods other than GET and HEAD", async () => {
    expect((await get("/", "POST")).status).toBe(405);
    expect((await get("/", "HEAD")).status).toBe(200);
  });

  it("answers 405 to CONNECT rather than dropping the connection", async () => {
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        text += chunk;
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    });
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toContain("Allow: GET, HEAD");
  });
});

describe("the package's npm start (serveOnConfiguredPort)", () => {
  it("takes a HOST set but empty as unset: 127.0.0.1, not every interface", async () => {
    const { HOST, PORT } = process.env;
    process.env.HOST = "";
    process.env.PORT = "0";
    try {
      const served = await serveOnConfiguredPort(root);
      await served.close();
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    } finally {
      for (const [name, value] of Object.entries({ HOST, PORT })) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
