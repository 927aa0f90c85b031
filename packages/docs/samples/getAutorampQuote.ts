import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// Amounts are decimal strings, never numbers.
const quote = await client.autoramps.getQuote({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  source_currency_code: "EUR",
  destination_currency_code: "USDC",
  destination_currency_chain: "Polygon",
  recipient_account: "DE89370400440532013000",
  amount_in: "1000.00",
  rate_lock_duration_minutes: 30,
  rate_expiry_policy: "Return",
  expiry_in_hours: 1,
  is_third_party: false,
});
console.log(quote.amount_out, quote.rate, quote.valid_until);
