import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// An indicative rate with its fees; amounts are decimal strings.
const rate = await client.exchangeRates.get({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  source_currency_code: "EUR",
  source_currency_type: "fiat",
  destination_currency_code: "USDC",
  destination_currency_type: "crypto",
  destination_currency_chain: "Polygon",
  amount: "500.00",
});
console.log(rate.effective_rate, rate.out_amount, rate.fee);
