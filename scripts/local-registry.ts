// The release rehearsal's registry: Verdaccio (a root dev dependency, pinned), started in this
// process on 127.0.0.1 and a free port, storing in a folder of the rehearsal's, with no uplink:
// it holds only what the rehearsal publishes. A user of a random name is created on it, and
// `proveOurs` asks the registry who that user's token belongs to: only the registry started here
// knows, so a publish never goes to a registry that a configuration put in its place.
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

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
      const answer = await fetch(new URL("-/whoami", target), {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
      const who = answer?.ok
        ? ((await answer.json()) as { username?: string }).username
        : undefined;
      if (target !== url || who !== name) {
        throw new Error(
          `refusing to publish: ${target} is not the registry this rehearsal started (${url}); nothing was published`,
        );
      }
    };
    await proveOurs(url);
    return { url, token, proveOurs, close };
  } catch (error) {
    await close();
    throw error;
  }
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
