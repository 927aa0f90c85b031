// Prism's router and mocker, remembered: what they computed for one request serves the next alike.
export { cachedMock, cachedValidateOutput } from "./mock-cache.js";
export { cachedRoute } from "./route-cache.js";
