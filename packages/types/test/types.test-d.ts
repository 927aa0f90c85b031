import { describe, expectTypeOf, test } from "vitest";
import type {
  Amount,
  Autoramp,
  Blockchain,
  CreateCustomerBody,
  CreateCustomerHeaders,
  CreateCustomerRequest,
  CreateDirectIdentificationPathParams,
  CurrencyType,
  Customer,
  CustomerStatus,
  Decimal,
  DepositAccountType,
  ExchangeRate,
  ExchangeRateCurrencyType,
  FeeSettlement,
  ListAutorampTransactionsQuery,
  ListCustomersQuery,
  ListCustomersResponse,
  operations,
  PagedList,
  PingWebhookResponse,
  paths,
  RateExpiryPolicy,
  SignedAutorampQuote,
  UpdateWebhookBody,
  WebhookTopic,
} from "../src/index.js";
import { WEBHOOK_TOPICS } from "../src/index.js";

/** The keys of `T` that must be present. */
type RequiredKeys<T> = {
  [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? never : K;
}[keyof T];
/** The keys of `T` that may be left out. */
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;

describe("required and optional fields follow the description", () => {
  test("Customer", () => {
    expectTypeOf<RequiredKeys<Customer>>().toEqualTypeOf<
      | "id"
      | "created_at"
      | "updated_at"
      | "customer_type"
      | "email"
      | "name"
      | "partner_id"
      | "identification_ids"
      | "signing_ids"
      | "status"
    >();
    expectTypeOf<OptionalKeys<Customer>>().toEqualTypeOf<
      "active_email" | "external_id" | "spending_limit_euro"
    >();
    expectTypeOf<Customer["spending_limit_euro"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Customer["status"]>().toEqualTypeOf<CustomerStatus>();
  });

  test("Autoramp", () => {
    expectTypeOf<RequiredKeys<Autoramp>>().toEqualTypeOf<
      | "id"
      | "created_at"
      | "deposit_rails"
      | "destination_currency"
      | "is_third_party"
      | "recipient"
      | "source"
      | "source_currencies"
      | "status"
    >();
    expectTypeOf<OptionalKeys<Autoramp>>().toEqualTypeOf<
      | "additional_partner_fee_in_bips"
      | "deposit_account"
      | "external_id"
      | "name"
      | "quote"
      | "travel_address"
      | "wire_message"
    >();
  });

  test("a create-customer body needs only customer_type and email", () => {
    expectTypeOf<RequiredKeys<CreateCustomerBody>>().toEqualTypeOf<"customer_type" | "email">();
  });
});

describe("decimal values are strings", () => {
  test("amounts, rates and bips", () => {
    expectTypeOf<Decimal>().toEqualTypeOf<string>();
    // The description does not mark Amount's fields as required.
    expectTypeOf<Amount["amount"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SignedAutorampQuote["rate"]>().toEqualTypeOf<string>();
    expectTypeOf<SignedAutorampQuote["slippage_tolerance_in_bips"]>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<ExchangeRate["effective_rate"]>().toEqualTypeOf<string>();
    expectTypeOf<Autoramp["additional_partner_fee_in_bips"]>().toEqualTypeOf<string | undefined>();
  });
});

describe("enum unions are exact", () => {
  test("each union lists exactly the described values", () => {
    expectTypeOf<WebhookTopic>().toEqualTypeOf<
      | "Transaction"
      | "NewBankAccount"
      | "NewAutoramp"
      | "DepositAddressCreated"
      | "RegisterFiatAddressStatus"
      | "RegisterAutorampStatus"
      | "TransactionStatus"
      | "CustomerCreated"
      | "CustomerStatus"
      | "IdentificationStatus"
      | "Ping"
    >();
    expectTypeOf<Blockchain>().toEqualTypeOf<
      "Solana" | "Ethereum" | "Polygon" | "Arbitrum" | "Base" | "Stellar"
    >();
    expectTypeOf<CustomerStatus>().toEqualTypeOf<
      "UserRequired" | "SigningsRequired" | "IdentificationRequired" | "Active" | "Suspended"
    >();
    expectTypeOf<FeeSettlement>().toEqualTypeOf<"deductedImmediately" | "settledLater">();
    expectTypeOf<RateExpiryPolicy>().toEqualTypeOf<"Return" | "Slippage">();
    expectTypeOf<CurrencyType>().toEqualTypeOf<"Fiat" | "Crypto">();
    expectTypeOf<ExchangeRateCurrencyType>().toEqualTypeOf<"fiat" | "crypto">();
    expectTypeOf<DepositAccountType>().toEqualTypeOf<
      | "Iban"
      | "Wallet"
      | "AchWire"
      | "Pix"
      | "Spei"
      | "AfricanBankTransfer"
      | "MobileMoney"
      | "ChapsFps"
    >();
  });

  test("the runtime arrays carry the literal values", () => {
    expectTypeOf<(typeof WEBHOOK_TOPICS)[number]>().toEqualTypeOf<WebhookTopic>();
    // `as const` keeps the array readonly, so consumers cannot push an unknown topic into it.
    expectTypeOf(WEBHOOK_TOPICS).toExtend<readonly WebhookTopic[]>();
    expectTypeOf(WEBHOOK_TOPICS).not.toExtend<WebhookTopic[]>();
  });
});

describe("pages", () => {
  test("prev_cursor may be missing or null", () => {
    expectTypeOf<PagedList["prev_cursor"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ListCustomersResponse["prev_cursor"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<ListCustomersResponse["cursor"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ListCustomersResponse["items"][number]>().toEqualTypeOf<Customer>();
    // Exactly Customer[], so `items.map((customer) => …)` gets a Customer, not unknown.
    expectTypeOf<ListCustomersResponse["items"]>().toEqualTypeOf<Customer[]>();
  });
});

describe("operation aliases", () => {
  test("bodies, parameters and responses point at the operation", () => {
    expectTypeOf<CreateCustomerBody>().toEqualTypeOf<CreateCustomerRequest>();
    expectTypeOf<CreateCustomerHeaders["IDEMPOTENCY-KEY"]>().toEqualTypeOf<string>();
    expectTypeOf<CreateCustomerHeaders["X-SUB-PARTNER-ID"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateDirectIdentificationPathParams>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<ListCustomersQuery["page_size"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ListAutorampTransactionsQuery["prev_cursor"]>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<UpdateWebhookBody["topics"]>().toEqualTypeOf<WebhookTopic[] | undefined>();
    expectTypeOf<PingWebhookResponse>().toEqualTypeOf<boolean>();
  });

  test("paths and operations describe the same operation", () => {
    expectTypeOf<paths["/customers"]["post"]>().toEqualTypeOf<operations["createCustomer"]>();
  });
});
