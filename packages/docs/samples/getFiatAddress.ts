import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

const customerId = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const fiatAddressId = "7a3c5e9b-1d4f-4a6c-8e2b-4d6f8a0c2e53";
const address = await client.fiatAddresses.get(
  customerId,
  fiatAddressId,
);
console.log(
  address.bank_name,
  address.bank_account_identifier,
  address.status,
);
