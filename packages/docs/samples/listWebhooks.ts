import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const page = await client.webhooks.list({ page_size: 10 });
for (const webhook of page.items) {
  console.log(webhook.id, webhook.label, webhook.enabled);
}
