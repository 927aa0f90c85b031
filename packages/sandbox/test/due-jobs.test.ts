// The jobs a SQLite sandbox reads ahead stay in the order they are due: a job scheduled to come
// due before the last of them drops them, a cancelled one leaves them, and only delivery
// attempts due in a row are taken together.
import { expect, it } from "vitest";
import { DueJobs } from "../src/store/due-jobs.js";
import type { JobKind, ScheduledJob } from "../src/store/store.js";

const job = (seq: number, dueAt: number, kind: JobKind = "deliver"): ScheduledJob => ({
  seq,
  dueAt,
  kind,
  subject: `s${seq}`,
  body: {},
});

it("gives the jobs due by a time, in order, and none that is due later", () => {
  const due = new DueJobs();
  due.fill([job(1, 10), job(2, 20), job(3, 30)]);
  expect(due.take(25, 1).map((taken) => taken.seq)).toEqual([1]);
  expect(due.take(25, 16).map((taken) => taken.seq)).toEqual([2]);
  expect(due.has(25)).toBe(false);
  expect(due.has(30)).toBe(true);
});

it("drops what it read when a job comes due before the last of it, keeps it otherwise", () => {
  const due = new DueJobs();
  due.fill([job(1, 10), job(2, 20)]);
  due.scheduled({ dueAt: 20, kind: "deliver", subject: "later", body: {} });
  expect(due.has(100)).toBe(true);
  due.scheduled({ dueAt: 15, kind: "step", subject: "sooner", body: {} });
  expect(due.has(100)).toBe(false);
});

it("loses a cancelled step and keeps the rest", () => {
  const due = new DueJobs();
  due.fill([job(1, 10, "step"), job(2, 20)]);
  due.cancelled("s1", "step");
  expect(due.take(100, 16).map((taken) => taken.seq)).toEqual([2]);
});

it("takes delivery attempts due in a row together, a step alone", () => {
  const due = new DueJobs();
  due.fill([job(1, 10), job(2, 11), job(3, 12, "step"), job(4, 13), job(5, 14)]);
  expect(due.take(100, 16).map((taken) => taken.seq)).toEqual([1, 2]);
  expect(due.take(100, 16).map((taken) => taken.seq)).toEqual([3]);
  expect(due.take(100, 1).map((taken) => taken.seq)).toEqual([4]);
  expect(due.take(100, 16).map((taken) => taken.seq)).toEqual([5]);
});
