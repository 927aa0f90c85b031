import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
// Asks the API to send a Ping event to the webhook's URL.
const sent = await client.webhooks.ping(
  "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02",
  {
    customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  },
);
console.log(sent);
