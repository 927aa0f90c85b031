import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
const autoramp = await client.autoramps.create({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  name: "EUR to USDC treasury",
  external_id: "ramp-eur-usdc-0001",
  source_currencies: [{ code: "EUR", type: "Fiat" }],
  destination_currency: { blockchain: "Polygon", token: "USDC" },
  recipient_account: {
    type: "Fiat",
    account_identifier: { iban: "DE89370400440532013000" },
  },
  source_is_third_party: false,
});
// Where the customer sends the funds.
console.log(autoramp.id, autoramp.status, autoramp.deposit_account);
