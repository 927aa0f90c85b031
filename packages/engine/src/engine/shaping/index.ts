// Prism's answer, shaped as the API's would be: the example a request asks for, the end of a list.
export {
  endOfListWhenFollowed,
  exampleMatchingBody,
  unavailablePreference,
} from "./response-shaping.js";
