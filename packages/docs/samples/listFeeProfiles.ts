import { createPaymentsClient } from "@org/payments-client";

const client = createPaymentsClient({
  apiKey: process.env.PAYMENTS_API_KEY ?? "",
  baseUrl: "https://sandbox.example.com/api",
});

// For one sub-partner: the client sends X-SUB-PARTNER-ID.
const subPartner = client.forSubPartner(
  "5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58",
);
const page = await subPartner.feeProfiles.list();
for (const profile of page.items) {
  console.log(profile.id, profile.name, profile.service_fee);
}
