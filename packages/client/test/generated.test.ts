import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadSpec } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { generatedDir, methodName, render, resourceName } from "../scripts/generate.ts";

describe("src/generated", () => {
  it("is what the generator makes from the current spec (run `pnpm generate` if not)", () => {
    for (const [name, text] of Object.entries(render(loadSpec()))) {
      expect(readFileSync(join(generatedDir, name), "utf8"), name).toBe(text);
    }
  });
});

describe("facade names", () => {
  it.each([
    ["createDirectIdentification", "Identifications", "createDirect"],
    ["listAutorampTransactionsByIds", "Autoramp transactions", "listByIds"],
    ["getExchangeRate", "Exchange rates", "get"],
    ["listFiatAddressesByCustomer", "Fiat addresses", "listByCustomer"],
    ["registerHostedCryptoAddress", "Crypto addresses", "registerHosted"],
    ["getAutorampQuote", "Autoramps", "getQuote"],
    ["listUnsignedDocuments", "Documents", "listUnsigned"],
  ])("%s in %s is %s", (operationId, tag, name) => {
    expect(methodName(operationId, tag)).toBe(name);
  });

  it("come from the tag's words in camelCase", () => {
    expect(resourceName("Autoramp transactions")).toBe("autorampTransactions");
    expect(resourceName("Webhooks")).toBe("webhooks");
  });

  it("refuse an operationId without its tag's noun", () => {
    expect(() => methodName("listThings", "Customers")).toThrow(
      "operationId listThings does not contain its tag's noun (Customers or Customer)",
    );
  });
});
