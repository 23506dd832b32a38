import { recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEMO_TYPED_DATA } from "./demoTypedData";

describe("the demo typed data", () => {
  it("is valid EIP-712 for chain 50312 and survives the JSON round trip the confirmation screen shows", async () => {
    expect(DEMO_TYPED_DATA.domain.chainId).toBe(50312);
    const account = privateKeyToAccount(generatePrivateKey());
    // viem derives the domain type itself (and then types chainId as a number).
    const { EIP712Domain: _, ...types } = DEMO_TYPED_DATA.types;
    const signature = await account.signTypedData({ ...DEMO_TYPED_DATA, types });
    const shown = JSON.parse(JSON.stringify(DEMO_TYPED_DATA, null, 2));
    expect(await recoverTypedDataAddress({ ...shown, signature })).toBe(account.address);
  });
});
