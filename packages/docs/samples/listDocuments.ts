import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const page = await client.documents.list({ page_size: 10 });
for (const document of page.items) {
  console.log(document.id, document.display_name);
}
