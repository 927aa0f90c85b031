// The same app on bare openapi-fetch: the baseline of the bundle size.
import type { paths } from "@org/payments-types";
import createClient from "openapi-fetch";

const client = createClient<paths>({
  baseUrl: "https://sandbox.example.com/api",
  headers: { "X-API-Key": "app-key" },
});
const { data } = await client.GET("/customers");
console.log(data);
