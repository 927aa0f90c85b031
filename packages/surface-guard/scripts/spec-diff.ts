// `pnpm spec:diff`: what the working documents change against the last released ones: the API's
// (partner-payments.yaml) and the test mode's (test-mode.yaml), each in its own section.
// With --check it fails when a change of either has no changeset added with it (src/changeset-check.ts).
// The command is `specDiffCommand` (src/spec-diff-command.ts): this prints what it returns.
import { specDiffCommand } from "../src/index.ts";

const { stdout, stderr, exitCode } = await specDiffCommand(process.argv.slice(2));
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = exitCode;
