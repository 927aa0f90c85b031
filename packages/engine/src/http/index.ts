// The HTTP front: serving, reading a request, problem bodies, CORS and request ids.
export { answerPreflight, corsHeaders, isPreflight, setCorsHeaders } from "./cors.js";
export { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";
export {
  type PlainAnswer,
  PlainReply,
  type PlainRequest,
  type PlainStream,
  plainKey,
  type Reply,
  readPlainRequest,
} from "./plain.js";
export { hasPreferences, type ParsedPreferences, type Preferences, parsePrefer } from "./prefer.js";
export {
  MAX_ERRORS,
  PROBLEM_CONTENT_TYPE,
  type Problem,
  type ProblemError,
  type ProblemLocation,
  problem,
} from "./problem.js";
export {
  type ApiRequest,
  ClientGoneError,
  type ForwardableRead,
  flattenHeaders,
  isMediaType,
  MAX_BODY_BYTES,
  type ReadResult,
  type Refusal,
  readForwardable,
  readRequest,
  type SegmentName,
  withOneApiKey,
} from "./read-request.js";
export { routeProblem, sendProblem } from "./refusal.js";
export { rememberedJsonText } from "./remembered-json-text.js";
export { loggedId, loggedTarget, REQUEST_ID, requestIdOf, tagAnswer } from "./request-id.js";
export { bodilessKey, readRequestKey } from "./request-key.js";
export {
  type ConnectionLimits,
  type RequestLogger,
  type Served,
  type ServeOptions,
  serve,
} from "./serve.js";
export { ABSOLUTE_FORM, decoded, splitTarget, type Target } from "./url.js";
