import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// The client adds an IDEMPOTENCY-KEY and reuses it on retries.
const address = await client.cryptoAddresses.registerHosted({
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  blockchain: "Polygon",
  wallet_address: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
  vasp_did: "did:web:vasp.example.com",
});
console.log(address.id, address.address_type);
