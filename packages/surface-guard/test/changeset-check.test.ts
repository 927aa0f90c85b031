// `spec:diff --check` on tiny clones: a git repository with a one-operation API document, its
// released baseline and changesets, edited as an API team would. The changes are the wire guard's,
// told by describeChanges; checkChangesets decides which changesets were added with them.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSpec } from "@org/payments-spec";
import { diffSpecs } from "@org/payments-spec/diff";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { describeChanges } from "../src/api-changes.ts";
import { checkChangesets } from "../src/changeset-check.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the document as loose JSON
type Json = Record<string, any>;

const ALL_FOUR = ["types", "client", "mock", "mcp"].map((name) => `@org/payments-${name}`);

function document(edit: (doc: Json) => void = () => {}): Json {
  const doc: Json = {
    openapi: "3.1.0",
    info: { title: "Tiny", version: "1.0.0" },
    tags: [{ name: "Customers" }],
    paths: {
      "/customers": {
        post: {
          operationId: "createCustomer",
          tags: ["Customers"],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { name: { type: "string" }, email: { type: "string" } },
                },
              },
            },
          },
          responses: { "201": { description: "Created" } },
        },
      },
    },
  };
  edit(doc);
  return doc;
}

const requireName = (doc: Json) => {
  doc.paths["/customers"].post.requestBody.content["application/json"].schema.required = ["name"];
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A clone whose document equals its released baseline, with `pending` changesets committed. */
function clone(pending: Record<string, string> = {}) {
  const root = mkdtempSync(path.join(os.tmpdir(), "payments-check-"));
  folders.push(root);
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "api-team@example.com");
  git("config", "user.name", "API team");
  mkdirSync(path.join(root, "openapi/released"), { recursive: true });
  mkdirSync(path.join(root, ".changeset"));
  writeFileSync(path.join(root, ".changeset/config.json"), "{}\n");
  const write = (file: string, doc: Json) => writeFileSync(path.join(root, file), stringify(doc));
  write("openapi/partner-payments.yaml", document());
  write("openapi/released/partner-payments.yaml", document());
  git("add", "-A");
  git("commit", "-qm", "released");
  const changeset = (id: string, releases: string) =>
    writeFileSync(path.join(root, ".changeset", `${id}.md`), `---\n${releases}---\n\n${id}\n`);
  for (const [id, releases] of Object.entries(pending)) changeset(id, releases);
  if (Object.keys(pending).length > 0) {
    git("add", "-A");
    git("commit", "-qm", "pending changesets");
  }
  const edit = (change: (doc: Json) => void) =>
    write("openapi/partner-payments.yaml", document(change));
  const commit = (message: string) => {
    git("add", "-A");
    git("commit", "-qm", message);
  };
  const check = async () => {
    const base = loadSpec(path.join(root, "openapi/released/partner-payments.yaml"));
    const head = loadSpec(path.join(root, "openapi/partner-payments.yaml"));
    const changes = await describeChanges("partner-payments", diffSpecs(base, head), base, head);
    return checkChangesets(root, changes);
  };
  return { root, edit, changeset, commit, check };
}

const majors = (names: string[]) => names.map((name) => `"${name}": major\n`).join("");

describe("spec:diff --check on a clone", () => {
  it("passes when nothing changed, whatever is pending", async () => {
    const repo = clone({ "node-20-dropped": majors(ALL_FOUR) });
    expect(await repo.check()).toBeUndefined();
  });

  it("refuses a break when the only major changeset was pending before it (about something else)", async () => {
    const repo = clone({ "node-20-dropped": majors(ALL_FOUR) });
    repo.edit(requireName);
    const verdict = await repo.check();
    expect(verdict?.failed).toBe(true);
    expect(verdict?.message).toContain(
      "partner-payments: createCustomer (POST /customers) request application/json body.name: property became required [request-property-became-required, breaking]",
    );
    expect(verdict?.message).toContain(
      `needs a major changeset on ${ALL_FOUR.join(", ")}, added with the change (in the working tree)`,
    );
    expect(verdict?.message).toContain(
      "pending from before the change, so about something else: node-20-dropped",
    );
    expect(verdict?.message).toContain("npm run changeset");
  });

  it("refuses a break whose major changeset is on the private spec package", async () => {
    const repo = clone();
    repo.edit(requireName);
    repo.changeset("spec-major", majors(["@org/payments-spec"]));
    const verdict = await repo.check();
    expect(verdict?.failed).toBe(true);
    expect(verdict?.message).toContain(
      "(on no published package, so they release nothing: spec-major (@org/payments-spec))",
    );
    expect(verdict?.message).toContain("@org/payments-spec (private: it releases");
  });

  it("refuses a break whose new changeset is a minor, or misses a package, naming what is missing", async () => {
    const repo = clone();
    repo.edit(requireName);
    repo.changeset(
      "name-required",
      `"@org/payments-types": major\n"@org/payments-client": minor\n`,
    );
    const verdict = await repo.check();
    expect(verdict?.failed).toBe(true);
    expect(verdict?.message).toContain(
      "needs a major changeset on @org/payments-client, @org/payments-mock, @org/payments-mcp,",
    );
    expect(verdict?.message).toContain('"@org/payments-client": major');
    expect(verdict?.message).not.toContain('"@org/payments-types": major');
  });

  it("accepts a break with its major changeset, uncommitted, committed with it, or committed after it", async () => {
    const repo = clone({ "node-20-dropped": majors(ALL_FOUR) });
    repo.edit(requireName);
    repo.changeset("name-required", majors(ALL_FOUR));
    expect(await repo.check()).toMatchObject({ failed: false });
    repo.commit("name is required, with its changeset");
    expect(await repo.check()).toMatchObject({ failed: false });

    const later = clone();
    later.edit(requireName);
    later.commit("name is required");
    expect((await later.check())?.failed).toBe(true);
    later.changeset("name-required", majors(ALL_FOUR));
    later.commit("its changeset");
    const verdict = await later.check();
    expect(verdict).toMatchObject({ failed: false });
    expect(verdict?.message).toContain("name-required");
  });

  it("refuses a committed break when the changeset came in a commit before it", async () => {
    const repo = clone();
    repo.changeset("early", majors(ALL_FOUR));
    repo.commit("a changeset for something else");
    repo.edit(requireName);
    repo.commit("name is required");
    const verdict = await repo.check();
    expect(verdict?.failed).toBe(true);
    expect(verdict?.message).toMatch(/added with the change \(in commit [0-9a-f]{10} or later\)/);
    expect(verdict?.message).toContain("about something else: early");
  });

  it("refuses an addition or a deprecation with no changeset, and takes a minor (not a patch)", async () => {
    const repo = clone();
    repo.edit((doc) => {
      doc.paths["/customers"].get = {
        operationId: "listCustomers",
        tags: ["Customers"],
        responses: { "200": { description: "OK" } },
      };
      doc.paths["/customers"].post.deprecated = true;
    });
    const refused = await repo.check();
    expect(refused?.failed).toBe(true);
    expect(refused?.message).toContain(
      "listCustomers (GET /customers): operation added [operation-added, addition]",
    );
    expect(refused?.message).toContain(
      "createCustomer (POST /customers): operation deprecated [operation-deprecated, deprecation]",
    );
    expect(refused?.message).toContain(`needs a minor changeset on ${ALL_FOUR.join(", ")}`);
    repo.changeset("list", ALL_FOUR.map((name) => `"${name}": patch\n`).join(""));
    expect((await repo.check())?.failed).toBe(true);
    repo.changeset("list", ALL_FOUR.map((name) => `"${name}": minor\n`).join(""));
    expect(await repo.check()).toMatchObject({ failed: false });
  });

  it("ties each of two changes of one rule at one place to the commit that made it", async () => {
    const bounded = (doc: Json) => {
      const schema = doc.paths["/customers"].post.requestBody.content["application/json"].schema;
      Object.assign(schema, { minProperties: 1, maxProperties: 1 });
    };
    const repo = clone();
    writeFileSync(
      path.join(repo.root, "openapi/released/partner-payments.yaml"),
      stringify(document(bounded)),
    );
    repo.edit(bounded);
    repo.commit("the baseline bounds the body");
    // Both bounds go in one commit (two request-limit-widened at the same place), then an
    // operation is added in another.
    repo.edit(() => {});
    repo.commit("the body unbounded");
    const unbounded = execFileSync("git", ["-C", repo.root, "rev-parse", "HEAD"], {
      encoding: "utf8",
    }).slice(0, 10);
    repo.edit((doc) => {
      doc.paths["/customers"].get = {
        operationId: "listCustomers",
        tags: ["Customers"],
        responses: { "200": { description: "OK" } },
      };
    });
    repo.commit("listCustomers");
    const message = (await repo.check())?.message ?? "";
    const widened = message
      .split("\n")
      .map((line, index, lines) => [line, lines[index + 1] ?? ""])
      .filter(([line]) => line?.includes("request-limit-widened"));
    expect(widened.map(([line]) => line?.match(/(min|max)Properties/)?.[0]).sort()).toEqual([
      "maxProperties",
      "minProperties",
    ]);
    for (const [, next] of widened) expect(next).toContain(`in commit ${unbounded} or later`);
  });

  it("passes over a version committed broken (a tab, the file deleted) on the way to the change", async () => {
    const repo = clone();
    const file = path.join(repo.root, "openapi/partner-payments.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("\n  /customers:", "\n\t/customers:"));
    repo.commit("paths indented with a tab");
    rmSync(file);
    repo.commit("the document deleted");
    repo.edit(requireName);
    repo.changeset("name-required", majors(ALL_FOUR));
    repo.commit("name is required, with its changeset");
    expect(await repo.check()).toMatchObject({ failed: false });
  });

  it("asks nothing of a change no consumer needs a release for (a description)", async () => {
    const repo = clone();
    repo.edit((doc) => {
      doc.info.description = "Reworded.";
    });
    expect(await repo.check()).toBeUndefined();
    expect(readFileSync(path.join(repo.root, "openapi/partner-payments.yaml"), "utf8")).toContain(
      "Reworded.",
    );
  });
});
