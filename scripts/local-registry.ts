// The release rehearsal's registry: Verdaccio (a root dev dependency, pinned), started in this
// process on 127.0.0.1 and a free port, storing in a folder of the rehearsal's, with no uplink:
// it holds only what the rehearsal publishes. A user of a random name is created on it, and
// `proveOurs` asks the registry who that user's token belongs to: only the registry started here
// knows, so a publish never goes to a registry that a configuration put in its place.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { PackedPackage } from "./pack.ts";
import { run } from "./rehearsal-processes.ts";
import { tarballText } from "./tarball.ts";

export type LocalRegistry = {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The token of the user created on it, for `npm publish`. */
  token: string;
  /** Fails unless the registry at `url` is this one: it knows this user's token. */
  proveOurs: (url: string) => Promise<void>;
  close: () => Promise<void>;
};

export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  mkdirSync(folder, { recursive: true });
  const access = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  // Loaded here, not at the top: a rehearsal that finds nothing to rehearse never loads it.
  const { runServer } = await import("verdaccio");
  const server: Server = await runServer({
    self_path: folder,
    storage: path.join(folder, "storage"),
    auth: { htpasswd: { file: path.join(folder, "htpasswd"), max_users: 1 } },
    uplinks: {},
    packages: { "@*/*": access, "**": access },
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "error" },
  } as never);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const name = `rehearsal-${randomBytes(6).toString("hex")}`;
    const token = await createUser(url, name, randomBytes(18).toString("base64url"));
    const proveOurs = async (target: string) => {
      const refuse = (why: string) =>
        new Error(
          `refusing to publish: ${target} is not the registry this rehearsal started (${url})${why}; nothing was published`,
        );
      if (target !== url) throw refuse("");
      const who = await whoIs(target, token);
      if (who.username !== name) {
        throw refuse(`: asked who holds the rehearsal's token, it answered ${who.answer}`);
      }
    };
    await proveOurs(url);
    return { url, token, proveOurs, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Publishes each tarball to the local registry, after proving that registry is ours. */
export async function publishTarballs(
  local: LocalRegistry,
  tarballs: PackedPackage[],
  folder: string,
): Promise<void> {
  const host = local.url.replace(/^http:/, "");
  const userconfig = path.join(folder, "publish.npmrc");
  writeFileSync(userconfig, `${host}:_authToken=${local.token}\n`);
  for (const pkg of tarballs) {
    const manifest = JSON.parse(tarballText(pkg.tarball, "package.json") ?? "{}") as {
      publishConfig?: { registry?: string };
    };
    if (manifest.publishConfig?.registry) {
      throw new Error(
        `refusing to publish ${pkg.name}: its publishConfig.registry (${manifest.publishConfig.registry}) would win over the local registry`,
      );
    }
  }
  await Promise.all(
    tarballs.map(async (pkg) => {
      await local.proveOurs(local.url);
      await run(
        "npm",
        [
          "publish",
          pkg.tarball,
          `--registry=${local.url}`,
          `--@org:registry=${local.url}`,
          `--userconfig=${userconfig}`,
          "--tag=rehearsal",
          "--access=public",
          "--ignore-scripts",
          "--loglevel=error",
        ],
        { cwd: folder },
      );
      const answer = await fetch(new URL(pkg.name.replace("/", "%2f"), local.url));
      const packument = (await answer.json()) as { versions?: Record<string, unknown> };
      if (!packument.versions?.[pkg.version]) {
        throw new Error(`${pkg.name}@${pkg.version} is not on the local registry after publishing`);
      }
    }),
  );
}

/**
 * Who the registry at `url` says holds `token`, and its answer in words. Asked again (at most three
 * times) when no answer came or the registry failed (a connection refused or reset, a 5xx, on a
 * loaded machine): only an answer naming a user is taken, so asking again proves nothing false.
 */
async function whoIs(url: string, token: string): Promise<{ username?: string; answer: string }> {
  let answer = "nothing";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const response = await fetch(new URL("-/whoami", url), {
      headers: { authorization: `Bearer ${token}` },
    }).catch((error: Error) => {
      const cause = error.cause as NodeJS.ErrnoException | undefined;
      answer = `no answer (${cause?.code ?? cause?.message ?? error.message})`;
      return undefined;
    });
    if (response?.ok) {
      const body = (await response.json().catch(() => ({}))) as { username?: unknown };
      return typeof body.username === "string"
        ? { username: body.username, answer: `user ${body.username}` }
        : { answer: "200 with no user" };
    }
    if (response !== undefined) {
      answer = `HTTP ${response.status}`;
      if (response.status < 500) return { answer };
    }
  }
  return { answer };
}

/** Creates the user on the registry (npm's `adduser` request) and returns its token. */
async function createUser(url: string, name: string, password: string): Promise<string> {
  const answer = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name,
      password,
      type: "user",
      roles: [],
      date: new Date().toISOString(),
    }),
  });
  const body = (await answer.json()) as { token?: string; error?: string };
  if (!answer.ok || !body.token) {
    throw new Error(
      `the local registry refused to create the rehearsal's user: ${body.error ?? answer.status}`,
    );
  }
  return body.token;
}
