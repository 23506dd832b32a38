import { describe, expect, it, vi } from "vitest";
import { initialize } from "../actions/initialize.ts";
import { loginWithEmailCode } from "../actions/loginWithEmailCode.ts";
import { logout } from "../actions/logout.ts";
import { sendEmailCode } from "../actions/sendEmailCode.ts";
import type { ClientOptions, CreateOnLogin } from "../client/createClient.ts";
import { installFakeWalletFrame } from "../test/fakeWalletFrame.ts";
import { makeClient, useScriptedApp } from "../test/harness.ts";
import { GOOD_CODE } from "../test/scriptApp.ts";
import { signedInWalletClient } from "../test/walletHarness.ts";
import { embeddedWalletState } from "../wallet/embeddedWalletState.ts";
import { getEmbeddedWallets, needsWalletOnLogin } from "../wallet/embeddedWallets.ts";
import type { EmbeddedWalletStatus } from "../wallet/types.ts";

const scripted = useScriptedApp();

async function loginWith(createOnLogin: CreateOnLogin, options: Partial<ClientOptions> = {}) {
  const client = makeClient(scripted.server, {
    embeddedWallets: { ethereum: { createOnLogin } },
    ...options,
  });
  const frame = installFakeWalletFrame(client);
  await initialize(client);
  const seen: EmbeddedWalletStatus[] = [];
  client.store.subscribe((state, previous) => {
    if (embeddedWalletState(state).status !== embeddedWalletState(previous).status)
      seen.push(embeddedWalletState(state).status);
  });
  await sendEmailCode(client, { email: "ada@example.com" });
  const login = loginWithEmailCode(client, { code: GOOD_CODE });
  return { client, frame, seen, login };
}

describe("embedded wallet on login", () => {
  it("creates a wallet for a user without one (users-without-wallets), before the login resolves", async () => {
    const { client, frame, seen, login } = await loginWith("users-without-wallets");
    const result = await login;
    expect(getEmbeddedWallets(result.user).map((w) => w.address)).toEqual([frame.account(0).address]);
    expect(getEmbeddedWallets(client.store.getState().user)).toHaveLength(1);
    expect(seen).toEqual(["loading-frame", "creating", "ready"]);
    expect(client.store.getState().emailFlow.status).toBe("done");
  });

  it("all-users creates it too; off creates nothing and mounts no frame", async () => {
    const all = await loginWith("all-users");
    expect(getEmbeddedWallets((await all.login).user)).toHaveLength(1);
    const off = await loginWith("off");
    expect(getEmbeddedWallets((await off.login).user)).toHaveLength(0);
    expect(off.frame.mounts).toHaveLength(0);
  });

  it("logs the user out and explains why when the wallet cannot be created", async () => {
    const { client, frame, login } = await loginWithFailingFrame();
    const error = await login.catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "embedded_wallet_creation_error",
      message:
        "Could not create your wallet: The server refused the shares. You have been logged out; please try again.",
    });
    expect(client.store.getState()).toMatchObject({ authenticated: false, user: null });
    expect(client.store.getState().emailFlow).toMatchObject({ status: "error", error });
    expect(scripted.server.hitsOf("POST /api/v1/sessions/logout")).toHaveLength(1);
    expect(frame.events()).toContain("privy:wallet:create");

    async function loginWithFailingFrame() {
      const client = makeClient(scripted.server, {
        embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" } },
      });
      const frame = installFakeWalletFrame(client);
      frame.fail("privy:wallet:create", "embedded_wallet_creation_error", "The server refused the shares.");
      await initialize(client);
      await sendEmailCode(client, { email: "ada@example.com" });
      return { client, frame, login: loginWithEmailCode(client, { code: GOOD_CODE }) };
    }
  });

  it("unlocks the wallet of a restored session in the background: connecting, then ready", async () => {
    const { client, frame, address } = await signedInWalletClient(scripted);
    await vi.waitFor(() => expect(embeddedWalletState(client.store.getState()).status).toBe("ready"));
    expect(frame.events()).toEqual(["privy:wallets:connect"]);
    expect(client.store.getState().embeddedWallets).toEqual([
      { chainType: "ethereum", entropyId: address, state: { status: "ready", error: null } },
    ]);
  });

  it("recovers on a new device (no device share): connecting, recovering, ready", async () => {
    const seen: EmbeddedWalletStatus[] = [];
    const { client, frame, address } = await signedInWalletClient(scripted, {
      frame: { needsRecovery: true },
    });
    client.store.subscribe((state, previous) => {
      if (embeddedWalletState(state).status !== embeddedWalletState(previous).status)
        seen.push(embeddedWalletState(state).status);
    });
    await vi.waitFor(() => expect(embeddedWalletState(client.store.getState()).status).toBe("ready"));
    expect(frame.events()).toEqual(["privy:wallets:connect", "privy:wallets:recover"]);
    expect(frame.received.find((r) => r.event === "privy:wallets:recover")?.data).toMatchObject({
      entropyId: address,
      entropyIdVerifier: "ethereum-address-verifier",
    });
    expect(seen.at(-1)).toBe("ready");
  });

  it("keeps a failed unlock in the wallet's error (embeddedWallets, logged), without failing anything else", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { client } = await signedInWalletClient(scripted, {
      frame: {
        failures: {
          "privy:wallets:connect": {
            type: "embedded_wallet_request_error",
            message: "Device share unreadable",
          },
        },
      },
    });
    await vi.waitFor(() => expect(embeddedWalletState(client.store.getState()).status).toBe("error"));
    expect(embeddedWalletState(client.store.getState()).error).toMatchObject({
      message: "Device share unreadable",
    });
    expect(client.store.getState()).toMatchObject({ ready: true, authenticated: true, error: null });
    expect(logged).toHaveBeenCalledWith(
      "Symbolon: the embedded wallet could not be unlocked.",
      expect.anything(),
    );
  });
});

describe("logging out and straight back in", () => {
  it("a background unlock of the session that ended fails quietly and leaves the next session's wallet alone", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // A restored session: its wallet is unlocked in the background (the frame holds the answer back).
    const { client, frame, address } = await signedInWalletClient(scripted, {
      frame: { muted: ["privy:wallets:connect"] },
    });
    // Logging back in gives the same user, wallet included.
    scripted.server.on("POST /api/v1/passwordless/authenticate", () => ({
      json: scripted.app.issue({ is_new_user: false }),
    }));
    const logIn = async () => {
      await sendEmailCode(client, { email: "ada@example.com" });
      await loginWithEmailCode(client, { code: GOOD_CODE });
    };
    const connects = () => frame.received.filter((r) => r.event === "privy:wallets:connect");
    await vi.waitFor(() => expect(connects()).toHaveLength(1));
    await logout(client);
    await logIn();
    await vi.waitFor(() => expect(connects()).toHaveLength(2));
    const [old, current] = connects();
    const mount = frame.mounts.at(-1);
    if (!old || !current || !mount) throw new Error("no frame");
    const origin = new URL(mount.src).origin;
    // The first session's unlock comes back refused (its session is over), after the second began.
    frame.deliver({
      origin,
      source: mount.window,
      data: {
        id: old.id,
        event: old.event,
        error: { type: "missing_or_invalid_token", message: "Session is no longer valid" },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logged).not.toHaveBeenCalled();
    expect(embeddedWalletState(client.store.getState()).status).not.toBe("error");
    frame.deliver({
      origin,
      source: mount.window,
      data: { id: current.id, event: current.event, data: { address, unlocked: true } },
    });
    await vi.waitFor(() => expect(embeddedWalletState(client.store.getState()).status).toBe("ready"));
    expect(logged).not.toHaveBeenCalled();
  });
});

describe("who gets an embedded wallet on login", () => {
  const times = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 };
  const wallet = (connector: string, chain: "ethereum" | "solana") =>
    ({
      type: "wallet",
      id: null,
      address:
        chain === "ethereum"
          ? "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
          : "So1ana1111111111111111111111111111111111111",
      chain_type: chain,
      wallet_client_type: connector === "embedded" ? "privy" : "metamask",
      connector_type: connector,
      wallet_index: connector === "embedded" ? 0 : null,
      recovery_method: null,
      imported: false,
      delegated: false,
      ...times,
    }) as const;
  const email = { type: "email", address: "ada@example.com", ...times } as const;
  const userWith = (...accounts: unknown[]) =>
    ({
      id: "did:privy:u1",
      created_at: 1,
      linked_accounts: accounts,
      has_accepted_terms: false,
      is_guest: false,
    }) as never;
  const needs = (createOnLogin: CreateOnLogin, user: never) =>
    needsWalletOnLogin(
      makeClient(scripted.server, { embeddedWallets: { ethereum: { createOnLogin } } }),
      user,
    );

  it("users-without-wallets skips a user who signed in or linked with an Ethereum wallet (SIWE)", () => {
    expect(needs("users-without-wallets", userWith(email))).toBe(true);
    expect(needs("users-without-wallets", userWith(wallet("injected", "ethereum")))).toBe(false);
    expect(needs("users-without-wallets", userWith(email, wallet("wallet_connect", "ethereum")))).toBe(false);
    // A Solana wallet is not an Ethereum wallet.
    expect(needs("users-without-wallets", userWith(wallet("injected", "solana")))).toBe(true);
  });

  it("all-users creates one beside an external wallet; nobody gets a second; off never", () => {
    expect(needs("all-users", userWith(wallet("injected", "ethereum")))).toBe(true);
    expect(needs("all-users", userWith(email, wallet("embedded", "ethereum")))).toBe(false);
    expect(needs("off", userWith(email))).toBe(false);
  });
});
