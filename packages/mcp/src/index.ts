export { type HttpServerOptions, type RunningHttpServer, serveHttp } from "./http.js";
export { DEFAULT_BASE_URL, type PaymentsMcpOptions } from "./options.js";
export { type RunningStdioServer, serveStdio } from "./stdio.js";
