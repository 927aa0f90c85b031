// The test mode's routes under /_sandbox/: the document that states them, what a feature's route
// is made of; the client the features' typed controls call them with is client.ts (entered
// directly, as the controls are).
export type { Schemas } from "./client.js";
export { DOCUMENT_ROUTES, isControlPath, testModeDocument } from "./document.js";
export type { CommittedReads, ControlRequest, Route, Routes, Transactions } from "./route.js";
