import { DELEGATION_SUCCESS_CLOSE_MS, fetchUser, getEmbeddedWallets, type User } from "@symbolon/core";
import { DELEGATION_SIGNER, embeddedWalletAccount, installFakeWalletFrame } from "@symbolon/core/testing";
import { act, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { type ReactNode, useContext } from "react";
import { describe, expect, it, onTestFinished } from "vitest";
import { DELEGATION_DECLINED_MESSAGE, REVOKE_CANCELLED_MESSAGE } from "../modal/flows/createDelegationFlow";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import { GOOD_CODE, startTestServer, TEST_APP_ID } from "../test/startTestServer";
import { useDelegatedActions, useHeadlessDelegatedActions } from "./useDelegatedActions";
import { useLoginWithEmail } from "./useLoginWithEmail";
import { useSessionSigners } from "./useSessionSigners";

const CONSENT = "privy:delegated-actions:consent";
const NOT_USERS_WALLET_MESSAGE = "Address to delegate is not associated with current user.";
const NOTHING_TO_REVOKE_MESSAGE = "User has no delegated wallets to revoke.";
const CONSENT_TITLE = "Allow Acme to use your wallet while you're away";
const REVOKE_TITLE = "Stop Acme from using your wallet?";

/** A signed-in user of the app "Acme" whose embedded wallets are index 0 (and 1) of the fake frame's key. */
async function setup({ wallets = 1, delegated = false } = {}) {
  const server = await startTestServer({ appName: "Acme" });
  onTestFinished(() => server.close());
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url}>
      {children}
    </PrivyProvider>
  );
  const hook = renderHook(
    () => ({
      context: useContext(PrivyContext),
      email: useLoginWithEmail(),
      delegation: useDelegatedActions(),
      headless: useHeadlessDelegatedActions(),
      signers: useSessionSigners(),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.context?.client?.store.getState().ready).toBe(true));
  const client = hook.result.current.context?.client;
  const controller = hook.result.current.context?.controller;
  if (!client || !controller) throw new Error("no client");
  const frame = installFakeWalletFrame(client);
  await act(() => hook.result.current.email.sendCode({ email: "ada@example.com" }));
  await act(() => hook.result.current.email.loginWithCode({ code: GOOD_CODE }));
  // The server's user owns the embedded wallets (as if created earlier); the client reads it again.
  const addresses = Array.from({ length: wallets }, (_, index) => frame.account(index).address);
  server.app.user = {
    ...server.app.user,
    linked_accounts: [
      ...server.app.user.linked_accounts,
      ...addresses.map((address, index) => ({ ...embeddedWalletAccount(address, index), delegated })),
    ] as User["linked_accounts"],
  };
  await act(() => fetchUser(client));
  const delegatedNow = () =>
    getEmbeddedWallets(client.store.getState().user)
      .filter((wallet) => wallet.delegated)
      .map((wallet) => wallet.address);
  const consents = () => frame.received.filter((request) => request.event === CONSENT);
  return {
    server,
    client,
    controller,
    frame,
    addresses,
    delegatedNow,
    consents,
    current: () => hook.result.current,
  };
}

const closed = (timeout = 1000) =>
  waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout });

describe("useDelegatedActions (consent and revoke screens)", () => {
  it("shows the app's signers and their rules, Allow delegates, then the screen closes by itself", async () => {
    const { current, frame, addresses, delegatedNow, consents } = await setup();
    const [address] = addresses as [string];
    let settled = false;
    const delegating = current()
      .delegation.delegateWallet({ address, chainType: "ethereum" })
      .then(() => {
        settled = true;
      });
    const dialog = await screen.findByRole("dialog", { name: CONSENT_TITLE });
    // The wallet, shortened, with the full address for hover and screen readers.
    const wallet = within(dialog).getByTitle(address);
    expect(wallet.textContent).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`);
    expect(wallet.textContent).toContain(address);
    // The terms: the signer by name and id, the policy's name, each rule in plain words.
    const signer = await within(dialog).findByRole("region", { name: "Test App back end (quorum-1)" });
    expect(within(signer).getByText("Shop only, at most 1 ETH")).toBeTruthy();
    const rules = within(signer)
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(rules).toEqual([
      "pay the shop: ALLOW eth_sendTransaction if ethereum_transaction.to eq 0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      "at most 1 ETH: DENY any method if ethereum_transaction.value gt 1000000000000000000",
    ]);
    expect(within(dialog).getByTestId("delegation-promise").textContent).toBe(
      "Acme's back end can sign only what these rules allow. You can revoke this any time.",
    );
    // Focus starts on the safe answer.
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Not now" }));

    fireEvent.click(within(dialog).getByRole("button", { name: "Allow" }));
    await within(dialog).findByRole("heading", { name: "Delegation enabled" });
    await delegating;
    expect(settled).toBe(true);
    expect(consents().map((request) => request.data)).toEqual([
      {
        accessToken: expect.any(String),
        rootWallet: { address, chainType: "ethereum", imported: false },
        delegatedWallets: [{ address, chainType: "ethereum", walletIndex: 0 }],
      },
    ]);
    expect(frame.events()).toContain("privy:wallets:connect");
    expect(delegatedNow()).toEqual([address]);
    // The success shows for DELEGATION_SUCCESS_CLOSE_MS, then the modal closes itself.
    expect(screen.queryByRole("dialog")).not.toBeNull();
    await closed(DELEGATION_SUCCESS_CLOSE_MS + 2000);
  });

  it("Not now (or Escape) rejects and delegates nothing", async () => {
    const { current, addresses, delegatedNow, consents } = await setup();
    const [address] = addresses as [string];
    const declined = current().delegation.delegateWallet({ address, chainType: "ethereum" });
    const dialog = await screen.findByRole("dialog", { name: CONSENT_TITLE });
    fireEvent.click(within(dialog).getByRole("button", { name: "Not now" }));
    await expect(declined).rejects.toThrow(DELEGATION_DECLINED_MESSAGE);
    await closed();

    const escaped = current().delegation.delegateWallet({ address, chainType: "ethereum" });
    fireEvent.keyDown(await screen.findByRole("dialog", { name: CONSENT_TITLE }), { key: "Escape" });
    await expect(escaped).rejects.toThrow(DELEGATION_DECLINED_MESSAGE);
    expect(consents()).toEqual([]);
    expect(delegatedNow()).toEqual([]);
  });

  it("says why a delegation failed and lets the user try again", async () => {
    const { current, frame, addresses, delegatedNow } = await setup();
    const [address] = addresses as [string];
    frame.fail(CONSENT, "embedded_wallet_request_error", "Wallet is not connected");
    const delegating = current().delegation.delegateWallet({ address, chainType: "ethereum" });
    const dialog = await screen.findByRole("dialog", { name: CONSENT_TITLE });
    await within(dialog).findByText("Shop only, at most 1 ETH");
    fireEvent.click(within(dialog).getByRole("button", { name: "Allow" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Wallet is not connected");
    frame.succeed(CONSENT);
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await within(dialog).findByRole("heading", { name: "Delegation enabled" });
    await delegating;
    expect(delegatedNow()).toEqual([address]);
  });

  it("says when the terms cannot be read, and reads them again on Try again", async () => {
    const { server, current, addresses } = await setup();
    const [address] = addresses as [string];
    server.on("POST /api/v1/delegated_actions/terms", (_hit, index) =>
      index === 0
        ? {
            status: 400,
            json: { error: "Delegated actions are not enabled for this app", code: "feature_not_enabled" },
          }
        : {
            json: {
              signer_public_key: "",
              hpke_suite: "",
              consent_id: "c",
              wallet_id: null,
              signers: [DELEGATION_SIGNER],
            },
          },
    );
    void current()
      .delegation.delegateWallet({ address, chainType: "ethereum" })
      .catch(() => {});
    const dialog = await screen.findByRole("dialog", { name: CONSENT_TITLE });
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "Delegated actions are not enabled for this app",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await within(dialog).findByText("Shop only, at most 1 ETH");
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Allow" })).toBeTruthy();
  });

  it("the revoke screen lists the delegated wallets; Revoke ends the delegation and closes", async () => {
    const { server, current, addresses, delegatedNow, consents } = await setup({
      wallets: 2,
      delegated: true,
    });
    const revoking = current().delegation.revokeWallets();
    const dialog = await screen.findByRole("dialog", { name: REVOKE_TITLE });
    const listed = within(within(dialog).getByRole("list", { name: "Delegated wallets" })).getAllByRole(
      "listitem",
    );
    expect(listed.map((item) => item.querySelector("[title]")?.getAttribute("title"))).toEqual(addresses);
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancel" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke" }));
    await within(dialog).findByRole("heading", { name: "Access revoked" });
    await revoking;
    expect(server.hitsOf("POST /api/v1/wallets/revoke").map((hit) => hit.body)).toEqual([{}]);
    expect(delegatedNow()).toEqual([]);
    expect(consents()).toEqual([]);
    await closed(DELEGATION_SUCCESS_CLOSE_MS + 2000);
  });

  it("Cancel on the revoke screen rejects and revokes nothing", async () => {
    const { server, current, addresses, delegatedNow } = await setup({ delegated: true });
    const cancelled = current().delegation.revokeWallets();
    const dialog = await screen.findByRole("dialog", { name: REVOKE_TITLE });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await expect(cancelled).rejects.toThrow(REVOKE_CANCELLED_MESSAGE);
    expect(server.hitsOf("POST /api/v1/wallets/revoke")).toEqual([]);
    expect(delegatedNow()).toEqual(addresses);
  });

  it("refuses before any screen: a wallet not the user's, nothing to revoke; a delegated wallet resolves at once", async () => {
    const { current, controller, frame, addresses } = await setup();
    const [address] = addresses as [string];
    await expect(
      current().delegation.delegateWallet({ address: frame.account(5).address, chainType: "ethereum" }),
    ).rejects.toThrow(NOT_USERS_WALLET_MESSAGE);
    await expect(current().delegation.revokeWallets()).rejects.toThrow(NOTHING_TO_REVOKE_MESSAGE);
    expect(controller.getState().requested).toBe(false);

    await act(() => current().headless.delegateWallet({ address, chainType: "ethereum" }));
    await act(() => current().delegation.delegateWallet({ address, chainType: "ethereum" }));
    expect(controller.getState().requested).toBe(false);
  });

  it("showDelegationUIs: false acts at once, without the modal", async () => {
    const { current, controller, addresses, delegatedNow, consents } = await setup();
    const [address] = addresses as [string];
    await act(() =>
      current().delegation.delegateWallet({ address, chainType: "ethereum", showDelegationUIs: false }),
    );
    expect(consents()).toHaveLength(1);
    expect(delegatedNow()).toEqual([address]);
    await act(() => current().delegation.revokeWallets({ showDelegationUIs: false }));
    expect(delegatedNow()).toEqual([]);
    expect(controller.getState().requested).toBe(false);
  });
});

describe("useHeadlessDelegatedActions", () => {
  it("delegates and revokes without the modal", async () => {
    const { server, current, controller, addresses, delegatedNow, consents } = await setup({ wallets: 2 });
    const second = addresses[1] as string;
    await act(() => current().headless.delegateWallet({ address: second, chainType: "ethereum" }));
    expect(consents().map((request) => request.data)).toEqual([
      expect.objectContaining({
        rootWallet: { address: addresses[0], chainType: "ethereum", imported: false },
        delegatedWallets: [{ address: second, chainType: "ethereum", walletIndex: 1 }],
      }),
    ]);
    expect(delegatedNow()).toEqual([second]);
    await act(() => current().headless.revokeWallets());
    expect(server.hitsOf("POST /api/v1/wallets/revoke")).toHaveLength(1);
    expect(delegatedNow()).toEqual([]);
    await expect(current().headless.revokeWallets()).rejects.toThrow(NOTHING_TO_REVOKE_MESSAGE);
    await expect(current().headless.delegateWallet({ address: second, chainType: "solana" })).rejects.toThrow(
      NOT_USERS_WALLET_MESSAGE,
    );
    expect(controller.getState().requested).toBe(false);
  });
});

describe("useSessionSigners", () => {
  it("addSessionSigners delegates to the signers given; removeSessionSigners revokes", async () => {
    const { server, current, controller, addresses, delegatedNow, consents } = await setup();
    const [address] = addresses as [string];
    const signers = [{ signerId: "quorum-1", policyIds: ["policy-1"] }];
    const added = await act(() => current().signers.addSessionSigners({ address, signers }));
    expect(consents().map((request) => request.data)).toEqual([expect.objectContaining({ signers })]);
    expect(server.hitsOf("POST /api/v1/embedded_wallets/delegation/terms").map((hit) => hit.body)).toEqual([
      { address, signers: [{ signer_id: "quorum-1", policy_ids: ["policy-1"] }] },
    ]);
    expect(delegatedNow()).toEqual([address]);
    expect(added.user?.linkedAccounts).toContainEqual(expect.objectContaining({ address, delegated: true }));

    const removed = await act(() => current().signers.removeSessionSigners({ address }));
    expect(server.hitsOf("POST /api/v1/wallets/revoke")).toHaveLength(1);
    expect(delegatedNow()).toEqual([]);
    expect(removed.user?.linkedAccounts).toContainEqual(
      expect.objectContaining({ address, delegated: false }),
    );
    // Nothing delegated any more: nothing to remove, no call.
    await act(() => current().signers.removeSessionSigners({ address }));
    expect(server.hitsOf("POST /api/v1/wallets/revoke")).toHaveLength(1);
    expect(controller.getState().requested).toBe(false);
  });
});
