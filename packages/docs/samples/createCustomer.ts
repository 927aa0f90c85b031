import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
const customer = await client.customers.create({
  customer_type: "Business",
  email: "finance@example.com",
  external_id: "crm-10042",
  name: "Lumen Harbor Trading GmbH",
});
console.log(customer.id, customer.status);
