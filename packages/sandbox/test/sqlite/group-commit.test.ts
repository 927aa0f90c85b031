// Requests that arrive together share a commit: none is answered before it, and a failing one
// leaves nothing behind while the others commit.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, expect, it } from "vitest";
import { groupCommit } from "../../src/store/group-commit.js";

let dir: string;
let db: DatabaseSync;
/** A second connection: it sees only what has committed. */
let reader: DatabaseSync;
let run: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "payments-group-commit-"));
  db = new DatabaseSync(join(dir, "group.db"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE notes (text TEXT NOT NULL)");
  reader = new DatabaseSync(join(dir, "group.db"));
  run = [];
});

afterEach(() => {
  db.close();
  reader.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The database, recording each transaction statement it runs. */
function recorded() {
  return {
    prepare(sql: string) {
      const statement = db.prepare(sql);
      return {
        run() {
          run.push(sql);
          return statement.run();
        },
      };
    },
    get isTransaction() {
      return db.isTransaction;
    },
  };
}

const committed = () =>
  reader
    .prepare("SELECT text FROM notes ORDER BY rowid")
    .all()
    .map((row) => String(row.text));

const insert = (text: string) => db.prepare("INSERT INTO notes (text) VALUES (?)").run(text);

it("commits requests that arrive together once, answering none before the commit", async () => {
  const queue = groupCommit(recorded());
  const seen: string[][] = [];
  const answered = ["a", "b", "c"].map((text) =>
    queue
      .transaction(async () => {
        insert(text);
        return text;
      })
      .then((answer) => {
        seen.push(committed());
        return answer;
      }),
  );
  expect(await Promise.all(answered)).toEqual(["a", "b", "c"]);
  expect(seen).toEqual([
    ["a", "b", "c"],
    ["a", "b", "c"],
    ["a", "b", "c"],
  ]);
  expect(run.filter((sql) => sql === "COMMIT")).toHaveLength(1);
});

it("rolls back a failing request's changes and commits the others", async () => {
  const queue = groupCommit(recorded());
  const results = await Promise.allSettled([
    queue.transaction(async () => insert("kept")),
    queue.transaction(async () => {
      insert("undone");
      throw new Error("the request failed");
    }),
    queue.transaction(async () => insert("also kept")),
  ]);
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(committed()).toEqual(["kept", "also kept"]);
});

it("runs work outside transactions after what was queued before it has committed", async () => {
  const queue = groupCommit(recorded());
  void queue.transaction(async () => insert("first"));
  const seen = await queue.alone(async () => ({ committed: committed(), open: db.isTransaction }));
  expect(seen).toEqual({ committed: ["first"], open: false });
});

it("runs work queued by an answer as it goes out", async () => {
  const queue = groupCommit(recorded());
  const seen = await queue
    .transaction(async () => insert("answered"))
    .then(() => queue.alone(async () => committed()));
  expect(seen).toEqual(["answered"]);
});
