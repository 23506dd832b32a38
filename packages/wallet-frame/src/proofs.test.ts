import { describe, expect, it } from "vitest";
import { sharesDigest, unlockMessage, walletProofMessage } from "./proofs.ts";

// The same vector as `messages_are_pinned` in crates/server/src/wallets/proofs.rs.
describe("proof messages", () => {
  it("match the server's text byte for byte", async () => {
    const auth = new Uint8Array(17).fill(1);
    const recovery = new Uint8Array(17).fill(2);
    recovery[0] = 3;
    const digest = await sharesDigest(auth, recovery);
    expect(digest).toBe("c72d89d92449f05e0acb8636afb5137c2eda940b4ef7d4cbb121d14b7ea61a50");
    expect(
      walletProofMessage({
        purpose: "create",
        appId: "app",
        userId: "user",
        address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        walletIndex: 0,
        shares: digest,
        devicePublicKey: "BKEY",
        nonce: "n1",
      }),
    ).toBe(
      `Symbolon wallet proof\npurpose: create\napp: app\nuser: user\naddress: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\nwallet index: 0\nshares: ${digest}\ndevice key: BKEY\nnonce: n1`,
    );
    expect(unlockMessage("app", "user", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "n2")).toBe(
      "Symbolon wallet proof\npurpose: key_material\napp: app\nuser: user\naddress: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\nnonce: n2",
    );
  });
});
