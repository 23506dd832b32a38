import { recoverMessageAddress } from "viem";
import { describe, expect, it } from "vitest";
import { storageKey } from "../session/storageKey.ts";
import { APP_ID } from "../test/fixtures.ts";
import { useScriptedApp } from "../test/harness.ts";
import { signedInWalletClient } from "../test/walletHarness.ts";
import { embeddedWalletState } from "../wallet/embeddedWalletState.ts";
import { getEmbeddedWallets } from "../wallet/embeddedWallets.ts";
import type { EmbeddedWalletStatus } from "../wallet/types.ts";
import { createWallet } from "./createWallet.ts";
import { exportWallet } from "./exportWallet.ts";
import { logout } from "./logout.ts";
import { signMessage } from "./signMessage.ts";

const scripted = useScriptedApp();

function walletStatuses(
  client: Awaited<ReturnType<typeof signedInWalletClient>>["client"],
): EmbeddedWalletStatus[] {
  const seen: EmbeddedWalletStatus[] = [];
  client.store.subscribe((state, previous) => {
    if (embeddedWalletState(state).status !== embeddedWalletState(previous).status)
      seen.push(embeddedWalletState(state).status);
  });
  return seen;
}

describe("createWallet", () => {
  it("creates the first wallet in the frame and adds it to the user", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false });
    const seen = walletStatuses(client);
    const wallet = await createWallet(client);
    expect(wallet).toMatchObject({
      type: "wallet",
      address: frame.account(0).address,
      wallet_index: 0,
      connector_type: "embedded",
      wallet_client_type: "privy",
      recovery_method: "privy",
    });
    expect(seen).toEqual(["loading-frame", "creating", "ready"]);
    // The client tracks it as the user's Ethereum wallet, named by its index 0.
    expect(client.store.getState().embeddedWallets).toEqual([
      { chainType: "ethereum", entropyId: wallet.address, state: { status: "ready", error: null } },
    ]);
    expect(getEmbeddedWallets(client.store.getState().user)).toEqual([wallet]);
    const stored = JSON.parse(client.options.storage?.getItem(storageKey(APP_ID, "user")) ?? "null");
    expect(getEmbeddedWallets(stored)).toEqual([wallet]);
    const create = frame.received.find((r) => r.event === "privy:wallet:create");
    expect(create?.data).toMatchObject({ chainType: "ethereum", recoveryMethod: "privy" });
    expect(frame.mounts).toHaveLength(1);
    expect(frame.mounts[0]?.options).toMatchObject({ title: "Symbolon wallet", visible: false });
    const src = new URL(frame.mounts[0]?.src ?? "");
    expect(`${src.origin}${src.pathname}`).toBe(`${scripted.server.url}/apps/${APP_ID}/embedded-wallets`);
    expect(src.searchParams.get("caid")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("makes one first wallet when called twice at once (an effect run twice under StrictMode)", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false });
    const [first, second] = await Promise.all([createWallet(client), createWallet(client)]);
    expect(second).toEqual(first);
    expect(frame.received.filter((r) => r.event === "privy:wallet:create")).toHaveLength(1);
    expect(getEmbeddedWallets(client.store.getState().user)).toEqual([first]);
  });

  it("refuses a second wallet without createAdditional, and derives index 1 with it", async () => {
    const { client, frame, address } = await signedInWalletClient(scripted);
    await expect(createWallet(client)).rejects.toMatchObject({
      code: "embedded_wallet_creation_error",
      message: "User already has an embedded wallet.",
    });
    const second = await createWallet(client, { createAdditional: true });
    expect(second).toMatchObject({ address: frame.account(1).address, wallet_index: 1 });
    expect(getEmbeddedWallets(client.store.getState().user).map((w) => w.address)).toEqual([
      address,
      frame.account(1).address,
    ]);
    // Named the published client's way: the entropy (index 0's address) and the HD index.
    expect(frame.received.find((r) => r.event === "privy:wallets:add")?.data).toMatchObject({
      chainType: "ethereum",
      entropyId: address,
      entropyIdVerifier: "ethereum-address-verifier",
      hdWalletIndex: 1,
    });
    // The second wallet signs as itself: the frame is asked for index 1 of the same entropy.
    const { signature } = await signMessage(client, { message: "from index 1" }, { address: second.address });
    expect(
      await recoverMessageAddress({ message: "from index 1", signature: signature as `0x${string}` }),
    ).toBe(second.address);
    expect(frame.received.filter((r) => r.event === "privy:wallets:rpc").at(-1)?.data).toMatchObject({
      entropyId: address,
      hdWalletIndex: 1,
    });
  });

  it("needs a signed-in user: 'Missing access token'", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false, signedIn: false });
    await expect(createWallet(client)).rejects.toMatchObject({
      code: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    expect(frame.mounts).toHaveLength(0);
  });

  it("puts a frame failure in the wallet's error (embeddedWallets)", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false });
    frame.fail("privy:wallet:create", "embedded_wallet_creation_error", "Could not store the shares");
    await expect(createWallet(client)).rejects.toThrow("Could not store the shares");
    expect(embeddedWalletState(client.store.getState())).toMatchObject({
      status: "error",
      error: { code: "embedded_wallet_creation_error", message: "Could not store the shares" },
    });
  });

  it("fails clearly when the frame's user lacks the new wallet", async () => {
    const { client } = await signedInWalletClient(scripted, {
      withWallet: false,
      frame: { linkWallet: (user) => user },
    });
    await expect(createWallet(client)).rejects.toMatchObject({
      code: "embedded_wallet_creation_error",
      message: "The wallet was created but is missing from the user's accounts.",
    });
  });

  it("sends privy:mfa:clear {userId} once on logout (the frame frees keys and MFA token) and starts the wallet state over", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false });
    await createWallet(client);
    const userId = client.store.getState().user?.id;
    await logout(client);
    expect(frame.events()).toEqual(["privy:wallet:create", "privy:mfa:clear"]);
    expect(frame.received.at(-1)?.data).toEqual({ userId });
    expect(embeddedWalletState(client.store.getState())).toEqual({ status: "idle", error: null });
    expect(client.store.getState().embeddedWallets).toEqual([]);
  });

  it("removes the hidden frame when the client is destroyed", async () => {
    const { client, frame } = await signedInWalletClient(scripted, { withWallet: false });
    await createWallet(client);
    client.destroy();
    expect(frame.mounts[0]?.removed).toBe(true);
  });
});

describe("exportWallet", () => {
  it("mounts a visible export frame and hands it the export request; close removes it", async () => {
    const { client, frame, address } = await signedInWalletClient(scripted);
    const container = {} as HTMLElement;
    const handle = exportWallet(client, { address: address.toLowerCase(), container });
    await handle.ready;
    const mount = frame.mounts.find((m) => m.options.title === "Export wallet");
    expect(mount?.options).toMatchObject({ visible: true, container });
    const src = new URL(mount?.src ?? "");
    // The export page at the path and query the published client opens.
    expect(src.pathname).toMatch(/\/apps\/[^/]+\/embedded-wallets\/export$/);
    expect(Object.fromEntries(src.searchParams)).toMatchObject({
      entropy_id: address,
      entropy_id_verifier: "ethereum-address-verifier",
      hd_wallet_index: "0",
      chain_type: "ethereum",
    });
    expect(src.searchParams.get("caid")).toMatch(/^[0-9a-f-]{36}$/);
    // The token goes by message, never in the URL (our client can post it again after MFA).
    expect(src.hash).toBe("");
    const request = frame.received.find((r) => r.event === "privy:wallet:export");
    expect(request?.data).toEqual({ accessToken: expect.any(String) });
    handle.close();
    expect(mount?.removed).toBe(true);
  });

  it("refuses an address that is not the user's embedded wallet, and a signed-out user", async () => {
    const { client } = await signedInWalletClient(scripted);
    const container = {} as HTMLElement;
    expect(() =>
      exportWallet(client, { address: "0x000000000000000000000000000000000000dEaD", container }),
    ).toThrow("0x000000000000000000000000000000000000dEaD is not an embedded wallet of the signed-in user.");
    await logout(client);
    expect(() =>
      exportWallet(client, { address: "0x000000000000000000000000000000000000dEaD", container }),
    ).toThrow("Missing access token");
  });
});
