// The site's pages that Redoc renders, and the init script of each (which holds its document and
// samples): the API reference, and the test-mode reference beside it.
import { INIT_SCRIPT } from "./self-contained.ts";

export const TEST_MODE_PAGE = "test-mode.html";
export const TEST_MODE_INIT_SCRIPT = "assets/test-mode-init.js";

export const REDOC_PAGES = [
  { page: "index.html", init: INIT_SCRIPT },
  { page: TEST_MODE_PAGE, init: TEST_MODE_INIT_SCRIPT },
] as const;
