// TypeScript 7 (`typescript`, the `tsc` of every package) type-checks all of our code. It has no
// JavaScript compiler API, so the tools below, which call that API, get a TypeScript 6 of their own
// instead of sharing the workspace's TypeScript 7 as a peer.
const COMPILER_API = "6.0.3";
const NEEDS_COMPILER_API = new Set(["openapi-typescript", "rolldown-plugin-dts"]);

module.exports = {
  hooks: {
    readPackage(pkg) {
      if (NEEDS_COMPILER_API.has(pkg.name)) {
        delete pkg.peerDependencies?.typescript;
        delete pkg.peerDependenciesMeta?.typescript;
        pkg.dependencies = { ...pkg.dependencies, typescript: COMPILER_API };
      }
      return pkg;
    },
  },
};
