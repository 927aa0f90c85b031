import manifest from "../package.json" with { type: "json" };

/** The package's version, as the server names itself to MCP clients. */
export const VERSION: string = manifest.version;
