import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// One page; pass `cursor: page.cursor` to get the next one, or
// iterate every customer with `client.paginate("/customers")`.
const page = await client.customers.list({
  page_size: 10,
  search_term: "Lumen",
});
for (const customer of page.items) {
  console.log(customer.id, customer.name, customer.status);
}
console.log("next page:", page.cursor ?? "none");
