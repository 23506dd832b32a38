// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { DEV_ETHEREUM_KEY, DEV_SOLANA_KEY, installTestWallets, TEST_WALLET_RDNS } from "./index.ts";

type Announced = { info: { rdns: string; name: string; icon: string; uuid: string }; provider: unknown };

describe("installing the test wallets in a page", () => {
  it("announces the Ethereum wallet by EIP-6963 (again on request), sets window.ethereum, registers the Solana wallet", () => {
    const announced: Announced[] = [];
    window.addEventListener("eip6963:announceProvider", (e) =>
      announced.push((e as CustomEvent<Announced>).detail),
    );
    const registered: unknown[] = [];
    // A Wallet Standard app: the wallet's register event hands over a callback that takes the app's `register`.
    window.addEventListener("wallet-standard:register-wallet", (e) =>
      (e as CustomEvent<(api: { register: (w: unknown) => void }) => void>).detail({
        register: (w) => registered.push(w),
      }),
    );
    const { ethereum, solana } = installTestWallets({
      ethereum: { privateKey: DEV_ETHEREUM_KEY },
      solana: { secretKey: DEV_SOLANA_KEY },
    });
    expect(announced).toHaveLength(1);
    expect(announced[0]?.info).toMatchObject({ rdns: TEST_WALLET_RDNS, name: "Symbolon Test Wallet" });
    expect(announced[0]?.info.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(announced[0]?.provider).toBe(ethereum);
    window.dispatchEvent(new Event("eip6963:requestProvider"));
    expect(announced).toHaveLength(2);
    expect((window as { ethereum?: unknown }).ethereum).toBe(ethereum);
    expect(registered).toEqual([solana]);
    const control = (window as { symbolonTestWallet?: Record<string, unknown> }).symbolonTestWallet;
    expect(control).toMatchObject({
      address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      chainId: 1,
      solanaAddress: solana?.address,
      reject: false,
    });
  });
});
