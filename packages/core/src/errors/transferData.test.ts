import { describe, expect, it } from "vitest";
import { ApiError } from "./ApiError.ts";
import { ClientError } from "./ClientError.ts";
import { transferData } from "./transferData.ts";

describe("transferData", () => {
  it("reads the offer of an account_transfer_required refusal", () => {
    const data = {
      nonce: "n",
      account_type: "email",
      display_name: "a@b.co",
      embedded_wallet_address: "0x1",
    };
    const error = new ApiError("account_transfer_required", "Belongs to another user.", 400, { data });
    expect(transferData(error)).toEqual(data);
  });

  it("is null for other errors and for a refusal without a nonce", () => {
    expect(
      transferData(new ApiError("linked_to_another_user", "x", 400, { data: { nonce: "n" } })),
    ).toBeNull();
    expect(transferData(new ApiError("account_transfer_required", "x", 400))).toBeNull();
    expect(transferData(new ClientError("invalid_input"))).toBeNull();
  });
});
