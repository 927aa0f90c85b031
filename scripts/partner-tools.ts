// The tools a partner's project installs the packages with, beside them: pinned, each from the
// npm registry. The e2e suite and the release rehearsal install the same ones.
export const PARTNER_TOOLS = {
  /** Bun, from the `bun` package (its binary inside). */
  bun: "1.4.4",
  /** Yarn 4, from `@yarnpkg/cli-dist`: no Corepack, no download of its own. */
  yarn: "4.18.1",
  /** The TypeScript a Yarn Plug'n'Play project type-checks with (Yarn patches it for PnP). */
  typescriptForYarn: "5.9.3",
  "@types/node": "24.19.2",
} as const;
