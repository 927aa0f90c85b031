// `pnpm --filter @org/bench profile:mock [-- --stateful]`: where a request's time goes in the
// built mock (or, with --stateful, in its in-memory sandbox). For each bench request (and, for
// the stateless mock, the client's create as the Mock section sends it), starts
// `payments-mock --quiet` under `node --cpu-prof`, loads it with autocannon as the bench does,
// stops it, and prints a table of the CPU time per request by what it was spent on (each sample
// goes to the first kind of work, in the table's order, that its stack shows).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import autocannon from "autocannon";
import { recordClientCreate } from "../src/servers/client-create.ts";
import { type BenchRequest, benchRequests, loadOptions } from "../src/servers/requests.ts";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 6);
const CONNECTIONS = 10;
/** The mock's own arguments after the script's: `--stateful` profiles the sandbox. */
const MOCK_ARGS = process.argv.slice(2).filter((arg) => arg !== "--");

const command = join(
  dirname(createRequire(import.meta.url).resolve("@org/payments-mock/package.json")),
  "bin/payments-mock.mjs",
);

/** Kinds of work, each recognised by the functions and modules on a sample's stack. */
const KINDS: [string, RegExp][] = [
  [
    "start-up (not per request)",
    /node:internal\/modules|compileSourceTextModule|startMock|createPrismEngine/,
  ],
  ["sandbox: SQL statements (node:sqlite)", /^(query|sqlStatement) /],
  [
    "sandbox: transactions' work (routes, keys, rows as JSON)",
    /^(runGrouped|pump|settle|claimAndRun|createCustomer|listCustomers|storedOf|indexedColumns) /,
  ],
  ["logging (Prism's log lines, silenced)", /prism-http\/dist\/utils\/logger|\/pino\/|withLogger/],
  ["routing", /prism-http\/dist\/router\/|cachedRoute|operationFor/],
  [
    "validation (security, request, response)",
    /prism-http\/dist\/validator\/|checkBody|headerOf|requestProblems|toProblemErrors|nonDecimalIntegers/,
  ],
  [
    "example selection (Prism's mocker)",
    /prism-http\/dist\/mocker\/|cachedMock|exampleMatchingBody|endOfListWhenFollowed/,
  ],
  [
    "request reading (target, query, headers, body, Prefer)",
    /readRequest|readHead|readBody|parseQuery|flattenHeaders|parsePrefer/,
  ],
  ["serialisation and sending", /writeHead|_http_outgoing|writev|stringify|sendProblem/],
  ["Prism's pipeline (fp-ts glue)", /prism-core\/dist|\/fp-ts\//],
  ["node:http parsing, sockets, event loop", /^/],
];
const IGNORED = new Set(["(idle)", "(program)"]);

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Microseconds of CPU time per kind of work, garbage collection apart. */
function timeByKind(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = (id: number) => {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) frames.push(`${frame.functionName} ${frame.url}`);
    }
    return frames;
  };
  const times = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const name = byId.get(id)?.callFrame.functionName ?? "";
    if (IGNORED.has(name)) return;
    const stack = stackOf(id);
    const kind =
      name === "(garbage collector)"
        ? "garbage collection"
        : (KINDS.find(([, pattern]) => stack.some((frame) => pattern.test(frame)))?.[0] ?? "");
    times.set(kind, (times.get(kind) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return times;
}

const requests: Record<string, BenchRequest> = MOCK_ARGS.includes("--stateful")
  ? benchRequests
  : { ...benchRequests, "POST /customers from the client": await recordClientCreate() };
const requestNames = Object.keys(requests);

async function profile(name: string) {
  const dir = mkdtempSync(join(tmpdir(), "mock-profile-"));
  try {
    const child = spawn(
      process.execPath,
      ["--cpu-prof", `--cpu-prof-dir=${dir}`, command, "--quiet", "--port", "0", ...MOCK_ARGS],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(child, "exit");
    const url = await new Promise<string>((resolve) => {
      let output = "";
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
    });
    const sent = requests[name] as BenchRequest;
    const result = await autocannon({
      url: `${url}${sent.path}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      ...loadOptions(sent),
    });
    child.kill("SIGTERM");
    await exited;
    const file = readdirSync(dir).find((entry) => entry.endsWith(".cpuprofile"));
    if (!file) throw new Error("the mock wrote no CPU profile");
    const times = timeByKind(JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile);
    return { requests: result.requests.total, times };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const name of requestNames) results.push({ name, ...(await profile(name)) });
const kinds = [...KINDS.map(([kind]) => kind), "garbage collection"].filter(
  (kind) => !kind.startsWith("start-up"),
);
console.log(`| Where the time goes (µs of CPU per request) | ${requestNames.join(" | ")} |`);
console.log(`| --- | ${requestNames.map(() => "---:").join(" | ")} |`);
for (const kind of kinds) {
  const cells = results.map(({ requests, times }) =>
    ((times.get(kind) ?? 0) / requests).toFixed(1),
  );
  console.log(`| ${kind} | ${cells.join(" | ")} |`);
}
const totals = results.map(({ requests, times }) =>
  (kinds.reduce((sum, kind) => sum + (times.get(kind) ?? 0), 0) / requests).toFixed(1),
);
console.log(`| **total** | ${totals.join(" | ")} |`);
console.log(`| requests served in ${SECONDS} s | ${results.map((r) => r.requests).join(" | ")} |`);
