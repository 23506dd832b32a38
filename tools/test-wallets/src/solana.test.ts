import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { describe, expect, it, vi } from "vitest";
import { controlOn } from "./control.ts";
import { DEV_SOLANA_KEY } from "./keys.ts";
import { createTestSolanaWallet, SOLANA_CHAINS, TEST_SOLANA_WALLET_NAME } from "./solana.ts";

type Connect = {
  connect(input?: { silent?: boolean }): Promise<{ accounts: { address: string; publicKey: Uint8Array }[] }>;
};
type SignMessage = {
  signMessage(
    ...inputs: { account: unknown; message: Uint8Array }[]
  ): Promise<{ signature: Uint8Array; signedMessage: Uint8Array }[]>;
};

function wallet() {
  const control = controlOn({});
  const solana = createTestSolanaWallet({ secretKey: DEV_SOLANA_KEY }, control);
  const features = solana.features as Record<string, unknown>;
  return {
    control,
    solana,
    connect: features["standard:connect"] as Connect,
    sign: features["solana:signMessage"] as SignMessage,
    events: features["standard:events"] as { on(e: "change", l: (p: unknown) => void): () => void },
    disconnect: features["standard:disconnect"] as { disconnect(): Promise<void> },
  };
}

const MESSAGE = new TextEncoder().encode("localhost wants you to sign in with your Solana account:\n…");

describe("Wallet Standard Solana test wallet", () => {
  it("describes itself as a Wallet Standard wallet on mainnet and devnet", () => {
    const { solana, control } = wallet();
    expect(solana.name).toBe(TEST_SOLANA_WALLET_NAME);
    expect(solana.version).toBe("1.0.0");
    expect(solana.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(solana.chains).toEqual(SOLANA_CHAINS);
    expect(Object.keys(solana.features).sort()).toEqual([
      "solana:signMessage",
      "standard:connect",
      "standard:disconnect",
      "standard:events",
    ]);
    expect(control.solanaAddress).toBe(solana.address);
    expect(base58.decode(solana.address)).toHaveLength(32);
  });

  it("connects (with a change event), stays unconnected on a silent connect, and disconnects", async () => {
    const { solana, connect, events, disconnect } = wallet();
    const change = vi.fn();
    events.on("change", change);
    expect((await connect.connect({ silent: true })).accounts).toEqual([]);
    const { accounts } = await connect.connect();
    expect(accounts.map((a) => a.address)).toEqual([solana.address]);
    expect(solana.accounts).toEqual(accounts);
    expect(change).toHaveBeenCalledWith({ accounts });
    await disconnect.disconnect();
    expect(solana.accounts).toEqual([]);
  });

  it("signs messages with ed25519: the signature verifies for the account's public key only", async () => {
    const { connect, sign, control } = wallet();
    const [account] = (await connect.connect()).accounts;
    const [output] = await sign.signMessage({ account, message: MESSAGE });
    if (!account || !output) throw new Error("no account or no signature");
    expect(output.signedMessage).toEqual(MESSAGE);
    expect(control.messages).toEqual([new TextDecoder().decode(MESSAGE)]);
    expect(ed25519.verify(output.signature, MESSAGE, account.publicKey)).toBe(true);
    expect(ed25519.verify(output.signature, new TextEncoder().encode("other"), account.publicKey)).toBe(
      false,
    );
  });

  it("with reject set, connect and signMessage fail with code 4001", async () => {
    const { control, connect, sign } = wallet();
    control.reject = true;
    await expect(connect.connect()).rejects.toMatchObject({
      code: 4001,
      message: "User rejected the request.",
    });
    control.reject = ["solana:signMessage"];
    const [account] = (await connect.connect()).accounts;
    await expect(sign.signMessage({ account, message: MESSAGE })).rejects.toMatchObject({ code: 4001 });
    control.reject = false;
    expect(await sign.signMessage({ account, message: MESSAGE })).toHaveLength(1);
  });

  it("refuses to sign before connecting (4100)", async () => {
    const { solana, sign } = wallet();
    const account = { address: solana.address, publicKey: base58.decode(solana.address) };
    await expect(sign.signMessage({ account, message: MESSAGE })).rejects.toMatchObject({ code: 4100 });
  });
});
