import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const customerId = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const page = await client.fiatAddresses.listByCustomer(customerId, {
  page_size: 10,
});
for (const address of page.items) {
  console.log(address.id, address.bank_name, address.status);
}
