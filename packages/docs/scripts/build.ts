// `npm run build`: builds the site into dist/ (see src/build-site.ts) and says what it built.
import path from "node:path";
import { buildSite } from "../src/build-site.ts";
import { distDir } from "../src/built-paths.ts";
import { TEST_MODE_PAGE } from "../src/pages.ts";
import { READINESS_PAGE } from "../src/readiness-page.ts";

const { operations, testModeOperations, guides } = await buildSite();
const dist = path.relative(process.cwd(), distDir) || ".";
console.log(
  `\u2714 built ${dist}/index.html (${operations} operations, each with TypeScript and curl samples and a console), ${dist}/${TEST_MODE_PAGE} (${testModeOperations} test-mode routes, each with a curl sample and a console), ${dist}/${READINESS_PAGE} and ${guides} guides in ${dist}/guides/`,
);
