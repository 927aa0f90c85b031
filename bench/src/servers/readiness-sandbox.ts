// A stateful sandbox in its own process for the readiness bench: `node readiness-sandbox.ts
// on|off`, with the readiness counters on or off (off only to measure what they cost). Reports
// its URL over IPC, then answers each "cpu" message with its CPU time so far (µs, user and
// system, every thread: finer than /proc's 10 ms ticks); stays up until the parent kills it or
// goes away.
import { startMock } from "@org/payments-mock";
import { API_KEY } from "./fixtures.ts";

const mode = process.argv[2];
if ((mode !== "on" && mode !== "off") || !process.send) {
  throw new Error("usage: fork readiness-sandbox.ts on|off");
}
const sandbox = await startMock({
  port: 0,
  stateful: true,
  exampleKey: API_KEY,
  countReadiness: mode === "on",
});
process.send({ url: sandbox.url });
process.on("message", (message) => {
  if (message !== "cpu") return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuUs: user + system });
});
process.on("disconnect", () => process.exit(0));
