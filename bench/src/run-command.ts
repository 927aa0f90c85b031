// Runs a command to completion and times it; a failing command throws with its output's tail.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The monorepo's root, where pnpm and turbo commands run. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string } = {},
): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      // Plain output: no colours or spinners to parse around.
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, output });
      else {
        reject(
          new Error(`\`${command} ${args.join(" ")}\` exited with ${code}:\n${excerpt(output)}`),
        );
      }
    });
  });
}

/** The output's first and last lines: errors are printed first by some tools, last by others. */
function excerpt(output: string) {
  const lines = output.trim().split("\n");
  if (lines.length <= 40) return lines.join("\n");
  return [...lines.slice(0, 20), "…", ...lines.slice(-20)].join("\n");
}
