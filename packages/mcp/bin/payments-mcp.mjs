#!/usr/bin/env node
// The installed command: a file that exists before the build, so installing a workspace that
// depends on this package can link it; the CLI itself is built into dist/. It checks the Node
// version first, in syntax any Node can read, so an older Node gets a sentence, not a stack.
const [major] = process.versions.node.split(".").map(Number);
if (major < 22) {
  console.error(
    `payments-mcp needs Node 22 or later; this is Node ${process.versions.node}. Install a current Node (https://nodejs.org) and run it again.`,
  );
  process.exit(1);
}
// V8's compiled code, kept between runs (in the OS's temporary folder): an MCP client starts
// the server often, and from the second start on nothing is compiled again.
const { enableCompileCache } = await import("node:module");
enableCompileCache?.();
await import("../dist/cli.mjs");
