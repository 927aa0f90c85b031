// The test mode's routes under /_sandbox/: the document that states them, what a feature's route
// is made of, and the client its typed controls call them with.
export {
  type ControlsClient,
  controlsClient,
  dataOf,
  everyItem,
  type FiltersOf,
  idParam,
  type RequestJson,
  type ResponseJson,
  SandboxControlError,
  type Schemas,
} from "./client.js";
export { isControlPath, TEST_MODE_DOCUMENT_ROUTES, testModeDocument } from "./document.js";
export type { ControlRequest, Route, Routes, Transactions } from "./route.js";
