import { describe, expect, it } from "vitest";
import { createClient } from "../client/createClient.ts";
import { APP_ID } from "../test/fixtures.ts";
import { embeddedWalletState } from "./embeddedWalletState.ts";
import { setWalletStatus } from "./unlockWallet.ts";

const ROOT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("embeddedWallets", () => {
  it("keeps one entry per chain, named by its entropy once known, and reads it as {status, error}", () => {
    const client = createClient({ appId: APP_ID, apiUrl: "http://127.0.0.1:1", broadcast: false });
    const idle = embeddedWalletState(client.store.getState());
    expect(idle).toEqual({ status: "idle", error: null });
    setWalletStatus(client, { chainType: "ethereum", entropyId: null }, "creating");
    setWalletStatus(client, { chainType: "ethereum", entropyId: ROOT }, "ready");
    // A status that does not name the entropy keeps the one known.
    setWalletStatus(client, { chainType: "ethereum", entropyId: null }, "error", new Error("Frame gone"));
    const { embeddedWallets } = client.store.getState();
    expect(embeddedWallets).toHaveLength(1);
    expect(embeddedWallets[0]).toMatchObject({
      chainType: "ethereum",
      entropyId: ROOT,
      state: { status: "error", error: { message: "Error: Frame gone" } },
    });
    // The same object until it changes (a `useSyncExternalStore` snapshot).
    expect(embeddedWalletState(client.store.getState())).toBe(embeddedWallets[0]?.state);
    expect(embeddedWalletState(client.store.getState())).toBe(embeddedWalletState(client.store.getState()));
    client.destroy();
  });
});
