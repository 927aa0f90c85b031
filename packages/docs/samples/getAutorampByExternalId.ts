import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// Looks an autoramp up by the `external_id` you gave it.
const autoramp = await client.autoramps.getByExternalId(
  "ramp-eur-usdc-0001",
);
console.log(autoramp.id, autoramp.status);
