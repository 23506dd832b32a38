import { describe, expect, it, vi } from "vitest";
import {
  ETHEREUM_ONLY_MESSAGE,
  NOT_USERS_WALLET_MESSAGE,
  NOTHING_TO_REVOKE_MESSAGE,
} from "../delegation/delegatedWallets.ts";
import { DELEGATION_WALLET_PROXY_WAIT_MS, type User } from "../generated/protocol.ts";
import { embeddedWalletAccount } from "../test/fakeWalletFrame.ts";
import { useScriptedApp } from "../test/harness.ts";
import { DELEGATION_SIGNER } from "../test/scriptApp.ts";
import { signedInWalletClient, type WalletTestClient } from "../test/walletHarness.ts";
import { getEmbeddedWallets } from "../wallet/embeddedWallets.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import { delegateWallet } from "./delegateWallet.ts";
import { fetchUser } from "./fetchUser.ts";
import { getDelegationTerms } from "./getDelegationTerms.ts";
import { revokeDelegatedWallets } from "./revokeDelegatedWallets.ts";

const scripted = useScriptedApp();

const CONSENT = "privy:delegated-actions:consent";

/** The server's user gets `change` (e.g. another wallet), and the client reads it again. */
async function changeUser({ client }: WalletTestClient, change: (user: User) => User) {
  scripted.app.user = change(scripted.app.user);
  await fetchUser(client);
}

const withAccounts =
  (...accounts: User["linked_accounts"]) =>
  (user: User): User => ({ ...user, linked_accounts: [...user.linked_accounts, ...accounts] });

/** The server marks every embedded wallet `delegated`. */
const allDelegated = (user: User): User => ({
  ...user,
  linked_accounts: user.linked_accounts.map((account) =>
    account.type === "wallet" ? { ...account, delegated: true } : account,
  ),
});

const delegatedOf = (tested: WalletTestClient) =>
  getEmbeddedWallets(tested.client.store.getState().user).map((wallet) => wallet.delegated);

describe("delegateWallet", () => {
  it("unlocks the first wallet, posts the consent for the wallet, then reads the user again", async () => {
    const tested = await signedInWalletClient(scripted);
    const { client, frame, address } = tested;
    expect(delegatedOf(tested)).toEqual([false]);
    const meBefore = scripted.server.hitsOf("GET /api/v1/users/me").length;
    await expect(delegateWallet(client, { address, chainType: "ethereum" })).resolves.toBeUndefined();
    expect(frame.events()).toEqual(["privy:wallets:connect", CONSENT]);
    // Exactly what the published client posts: no signers (the app's default delegation).
    expect(frame.received.find((request) => request.event === CONSENT)?.data).toEqual({
      accessToken: expect.any(String),
      rootWallet: { address, chainType: "ethereum", imported: false },
      delegatedWallets: [{ address, chainType: "ethereum", walletIndex: 0 }],
    });
    // The frame asked for the terms it sealed (its own route).
    expect(
      scripted.server.hitsOf("POST /api/v1/embedded_wallets/delegation/terms").map((hit) => hit.body),
    ).toEqual([{ address }]);
    // The user is read again: the wallet is delegated now.
    expect(scripted.server.hitsOf("GET /api/v1/users/me").length).toBe(meBefore + 1);
    expect(delegatedOf(tested)).toEqual([true]);
  });

  it("delegates a further wallet under the first one's entropy, with the signers asked for", async () => {
    const tested = await signedInWalletClient(scripted);
    const { client, frame, address } = tested;
    const second = frame.account(1).address;
    await changeUser(tested, withAccounts(embeddedWalletAccount(second, 1)));
    const signers = [{ signerId: "quorum-1", policyIds: ["policy-1"] }];
    await delegateWallet(client, { address: second.toLowerCase(), chainType: "ethereum", signers });
    expect(frame.received.find((request) => request.event === CONSENT)?.data).toMatchObject({
      rootWallet: { address, chainType: "ethereum" },
      delegatedWallets: [{ address: second, chainType: "ethereum", walletIndex: 1 }],
      signers,
    });
    expect(scripted.server.hitsOf("POST /api/v1/embedded_wallets/delegation/terms")[0]?.body).toEqual({
      address: second,
      signers: [{ signer_id: "quorum-1", policy_ids: ["policy-1"] }],
    });
    expect(delegatedOf(tested)).toEqual([false, true]);
  });

  it("recovers the wallet on a new device first, as signing does", async () => {
    const tested = await signedInWalletClient(scripted, { frame: { needsRecovery: true } });
    await delegateWallet(tested.client, { address: tested.address, chainType: "ethereum" });
    expect(tested.frame.events()).toEqual(["privy:wallets:connect", "privy:wallets:recover", CONSENT]);
  });

  it("waits for the frame at most DELEGATION_WALLET_PROXY_WAIT_MS", async () => {
    const { client, address } = await signedInWalletClient(scripted);
    const request = vi.spyOn(walletFrame(client), "request");
    await delegateWallet(client, { address, chainType: "ethereum" });
    expect(request).toHaveBeenCalledWith(CONSENT, expect.anything(), {
      timeoutMs: DELEGATION_WALLET_PROXY_WAIT_MS,
    });
  });

  it("does nothing for a wallet already delegated", async () => {
    const tested = await signedInWalletClient(scripted);
    await changeUser(tested, allDelegated);
    const hits = scripted.server.hits.length;
    await expect(
      delegateWallet(tested.client, { address: tested.address, chainType: "ethereum" }),
    ).resolves.toBeUndefined();
    expect(tested.frame.events()).not.toContain(CONSENT);
    expect(scripted.server.hits.length).toBe(hits);
  });

  it("refuses a signed-out user, a wallet not the user's, and Solana, before the frame", async () => {
    const signedOut = await signedInWalletClient(scripted, { signedIn: false });
    await expect(
      delegateWallet(signedOut.client, { address: signedOut.address, chainType: "ethereum" }),
    ).rejects.toMatchObject({
      code: "attempted_rpc_call_before_logged_in",
      message: "User must be authenticated before delegating a wallet.",
    });

    const tested = await signedInWalletClient(scripted);
    const { client, frame } = tested;
    await expect(
      delegateWallet(client, { address: frame.account(1).address, chainType: "ethereum" }),
    ).rejects.toMatchObject({ code: "invalid_input", message: NOT_USERS_WALLET_MESSAGE });
    // An address of the user's, named with another chain, is not that chain's wallet.
    await expect(
      delegateWallet(client, { address: tested.address, chainType: "solana" }),
    ).rejects.toMatchObject({ message: NOT_USERS_WALLET_MESSAGE });
    const solana = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    await changeUser(tested, withAccounts({ ...embeddedWalletAccount(solana, 0), chain_type: "solana" }));
    await expect(delegateWallet(client, { address: solana, chainType: "solana" })).rejects.toMatchObject({
      code: "unsupported_wallet_type",
      message: ETHEREUM_ONLY_MESSAGE,
    });
    expect(frame.events()).not.toContain(CONSENT);
    expect(scripted.server.hitsOf("POST /api/v1/embedded_wallets/delegation/terms")).toEqual([]);
  });

  it("fails with the frame's refusal and leaves the user as it was", async () => {
    const tested = await signedInWalletClient(scripted);
    tested.frame.fail(CONSENT, "invalid_input", "0xabc is not the wallet at index 0");
    await expect(
      delegateWallet(tested.client, { address: tested.address, chainType: "ethereum" }),
    ).rejects.toMatchObject({ code: "invalid_input", message: "0xabc is not the wallet at index 0" });
    expect(delegatedOf(tested)).toEqual([false]);
  });
});

describe("revokeDelegatedWallets", () => {
  it("posts {} to /wallets/revoke with the user's token, then reads the user again", async () => {
    const tested = await signedInWalletClient(scripted);
    await changeUser(tested, allDelegated);
    expect(delegatedOf(tested)).toEqual([true]);
    await expect(revokeDelegatedWallets(tested.client)).resolves.toEqual({
      success: true,
      revoked: [tested.address],
    });
    const [hit] = scripted.server.hitsOf("POST /api/v1/wallets/revoke");
    expect(hit?.body).toEqual({});
    expect(hit?.headers.authorization).toMatch(/^Bearer /);
    expect(delegatedOf(tested)).toEqual([false]);
    expect(tested.frame.events()).not.toContain(CONSENT);
  });

  it("refuses a user with no delegated wallet without calling the server", async () => {
    const tested = await signedInWalletClient(scripted);
    await expect(revokeDelegatedWallets(tested.client)).rejects.toMatchObject({
      code: "invalid_input",
      message: NOTHING_TO_REVOKE_MESSAGE,
    });
    const signedOut = await signedInWalletClient(scripted, { signedIn: false });
    await expect(revokeDelegatedWallets(signedOut.client)).rejects.toMatchObject({
      code: "attempted_rpc_call_before_logged_in",
    });
    expect(scripted.server.hitsOf("POST /api/v1/wallets/revoke")).toEqual([]);
  });

  it("passes on the server's refusal", async () => {
    const tested = await signedInWalletClient(scripted);
    await changeUser(tested, allDelegated);
    scripted.server.on("POST /api/v1/wallets/revoke", () => ({
      status: 403,
      json: { error: "User has no delegated wallets to revoke.", code: "user_has_not_delegated_wallet" },
    }));
    await expect(revokeDelegatedWallets(tested.client)).rejects.toMatchObject({
      code: "user_has_not_delegated_wallet",
    });
  });
});

describe("getDelegationTerms", () => {
  it("asks the server for the terms, with the signers in the wire's names", async () => {
    const { client, address } = await signedInWalletClient(scripted);
    const terms = await getDelegationTerms(client, {
      address,
      signers: [{ signerId: "quorum-1", policyIds: ["policy-1", "policy-2"] }],
    });
    expect(terms).toMatchObject({ consent_id: "consent-1", signers: [DELEGATION_SIGNER] });
    expect(scripted.server.hitsOf("POST /api/v1/delegated_actions/terms").map((hit) => hit.body)).toEqual([
      { address, signers: [{ signer_id: "quorum-1", policy_ids: ["policy-1", "policy-2"] }] },
    ]);
    await getDelegationTerms(client);
    expect(scripted.server.hitsOf("POST /api/v1/delegated_actions/terms")[1]?.body).toEqual({});
  });

  it("needs a signed-in user", async () => {
    const { client } = await signedInWalletClient(scripted, { signedIn: false });
    await expect(getDelegationTerms(client)).rejects.toMatchObject({
      code: "attempted_rpc_call_before_logged_in",
    });
  });
});
