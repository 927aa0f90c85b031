// The smallest real app on @org/payments-client: create it, make one call.
import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: "app-key",
  baseUrl: "https://sandbox.example.com/api",
});
const { data } = await client.GET("/customers");
console.log(data);
