import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
const customerId = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const identification = await client.identifications.createDirect(
  customerId,
  { type: "Direct" },
);
console.log(identification.id, identification.status);
