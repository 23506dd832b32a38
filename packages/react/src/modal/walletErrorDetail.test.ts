import { EMBEDDED_LOGIN_MESSAGE, UNABLE_TO_CONNECT_MESSAGE } from "@symbolon/core";
import { describe, expect, it } from "vitest";
import { isUserRejection, walletErrorDetail } from "./walletErrorDetail";

describe("walletErrorDetail", () => {
  it("says the person declined for a 4001, in the wallet's error or wrapped by core", () => {
    expect(isUserRejection({ code: 4001, message: "User rejected the request." })).toBe(true);
    expect(isUserRejection({ code: "user_rejected_request", rpcCode: 4001 })).toBe(true);
    expect(isUserRejection({ code: "unauthorized", rpcCode: 4100 })).toBe(false);
    expect(walletErrorDetail({ code: 4001, message: "User rejected the request." }, "Rabby", "sign")).toBe(
      "You declined the signature request. Try again to sign in.",
    );
  });

  it("names what the wallet could not do for the other EIP-1193 codes (spec §8)", () => {
    expect(walletErrorDetail({ code: "unauthorized" }, "Rabby", "connect")).toBe(
      "Rabby did not share an account. Unlock it and try again.",
    );
    expect(walletErrorDetail({ code: "unrecognized_chain" }, "Rabby", "connect")).toBe(
      "Rabby could not switch to this app's network.",
    );
  });

  it("keeps the spec's sentences, and never shows a raw message", () => {
    expect(walletErrorDetail({ code: "invalid_data", message: EMBEDDED_LOGIN_MESSAGE }, "x", "sign")).toBe(
      EMBEDDED_LOGIN_MESSAGE,
    );
    expect(walletErrorDetail(new Error("socket hang up at 0xdeadbeef"), "x", "connect")).toBe(
      UNABLE_TO_CONNECT_MESSAGE,
    );
    expect(walletErrorDetail(new Error("internal"), "x", "sign")).toBe("Something went wrong. Try again.");
  });
});
