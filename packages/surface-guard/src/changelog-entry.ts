// The `./changelog` entry, for the docs site: the API changelog's record and its Markdown, and what
// the working documents would release now, on the wire. It loads no compiler.
export {
  type ApiChange,
  type ApiChangelog,
  type ApiDocument,
  type ApiRelease,
  isBreaking,
  type Level,
  readChangelog,
  releaseId,
  releaseMarkdown,
  releaseTitle,
  upgradeMarkdown,
} from "./changelog.ts";
export { pendingReleases } from "./pending.ts";
