import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const page = await client.autorampTransactions.listByIds({
  ids: ["1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64"],
});
for (const transaction of page.items) {
  console.log(transaction.id, transaction.state);
}
