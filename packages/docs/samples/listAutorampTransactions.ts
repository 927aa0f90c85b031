import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const page = await client.autorampTransactions.list({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  page_size: 10,
});
for (const transaction of page.items) {
  console.log(
    transaction.id,
    transaction.state,
    transaction.source_amount,
  );
}
