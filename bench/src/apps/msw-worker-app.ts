// The smallest front end mocking with MSW in the browser: one handler, the worker started.
import { HttpResponse, http } from "msw";
import { setupWorker } from "msw/browser";

const worker = setupWorker(
  http.get("https://api.example.test/customers", () => HttpResponse.json([])),
);
await worker.start({ quiet: true });
