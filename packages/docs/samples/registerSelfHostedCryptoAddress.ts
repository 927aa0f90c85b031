import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
// `signature` is `message` signed with the wallet's key: it proves
// that the customer owns the wallet.
const wallet = await client.cryptoAddresses.registerSelfHosted({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  blockchain: "Ethereum",
  address: "0x9a8b7c6d5e4f30211203f4e5d6c7b8a9f0e1d2c3",
  message: "I own this wallet (Lumen Harbor Trading GmbH, 2026-03-04)",
  signature:
    "0x3c1d5e7f9a0b2c4d6e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e2f4a6b8c0d1b",
});
console.log(wallet.id);
