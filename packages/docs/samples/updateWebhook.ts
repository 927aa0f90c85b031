import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const webhook = await client.webhooks.update(
  "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02",
  {
    enabled: false,
  },
);
console.log(webhook.enabled);
