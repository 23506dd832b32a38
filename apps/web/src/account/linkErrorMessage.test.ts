import { PrivyErrorCode } from "@symbolon/react";
import { describe, expect, it } from "vitest";
import { linkErrorMessage } from "./linkErrorMessage";

describe("linkErrorMessage", () => {
  it("says nothing when the person cancelled (the modal, the account-transfer screen)", () => {
    expect(linkErrorMessage(PrivyErrorCode.USER_EXITED_LINK_FLOW)).toBeNull();
    expect(linkErrorMessage(PrivyErrorCode.USER_EXITED_UPDATE_FLOW)).toBeNull();
  });

  it("puts other endings in words, never the raw code", () => {
    expect(linkErrorMessage(PrivyErrorCode.CANNOT_LINK_MORE_OF_TYPE)).toBe(
      "An account of this kind is linked already.",
    );
    const unknown = linkErrorMessage("failed_to_link_account");
    expect(unknown).toBe("Could not link the account. Please try again.");
    expect(unknown).not.toMatch(/_/);
  });
});
