import { describe, expect, it } from "vitest";
import { ApiError } from "../errors/ApiError.ts";
import { describeWalletError } from "./describeWalletError.ts";
import { ProviderRpcError } from "./ProviderRpcError.ts";

describe("describeWalletError", () => {
  it("puts the chain's insufficient-funds errors in a person's words, with the currency", () => {
    for (const message of [
      "insufficient funds for gas * price + value: have 1000 want 2000",
      "Insufficient funds for gas * price + value",
      "insufficient funds for transfer",
    ]) {
      expect(describeWalletError(new ProviderRpcError(-32000, message), { symbol: "STT" })).toBe(
        "Not enough STT to pay for this transaction and its network fee.",
      );
    }
  });

  it("finds the chain's message along the error's causes", () => {
    const wrapped = new Error("Transaction failed", { cause: new ProviderRpcError(-32000, "nonce too low") });
    expect(describeWalletError(wrapped)).toBe(
      "Another transaction from this wallet went through first. Try again.",
    );
  });

  it("says a refusal in the confirmation is the person's own cancel", () => {
    expect(describeWalletError(new ProviderRpcError(4001, "User rejected the request."))).toBe(
      "You cancelled the request.",
    );
  });

  it("falls back to the client's words for server errors and the provider's sentence otherwise", () => {
    expect(describeWalletError(new ApiError("too_many_requests", "x", 429))).toBe(
      "Too many requests. Please wait before trying again.",
    );
    expect(describeWalletError(new ProviderRpcError(4902, "Chain ID 5 is not supported."))).toBe(
      "Chain ID 5 is not supported.",
    );
  });
});
