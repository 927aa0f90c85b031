import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const page = await client.fiatAddresses.list({
  status: "Registered",
  page_size: 10,
});
for (const address of page.items) {
  console.log(address.id, address.bank_name, address.currency);
}
