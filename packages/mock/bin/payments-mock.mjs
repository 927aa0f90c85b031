#!/usr/bin/env node
// The installed command: a file that exists before the build, so installing a workspace
// that depends on this package can link it; the CLI itself is built into dist/.
import "../dist/cli.mjs";
