import { type FakeWalletFrame, installFakeWalletFrame } from "@symbolon/core/testing";
import { act, renderHook, waitFor } from "@testing-library/react";
import { type ReactNode, useContext } from "react";
import { recoverMessageAddress } from "viem";
import { describe, expect, it, onTestFinished } from "vitest";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { PrivyContext } from "../provider/PrivyContext";
import { PrivyProvider } from "../provider/PrivyProvider";
import { GOOD_CODE, startTestServer, TEST_APP_ID } from "../test/startTestServer";
import { useCreateWallet } from "./useCreateWallet";
import { useEmbeddedWalletState } from "./useEmbeddedWalletState";
import { useExportWallet } from "./useExportWallet";
import { useLoginWithEmail } from "./useLoginWithEmail";
import { useSignMessage } from "./useSignMessage";
import { useWallets } from "./useWallets";

const somnia = {
  id: 50312,
  name: "Somnia Testnet",
  nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
};

async function setup(config: PrivyConfig) {
  const server = await startTestServer();
  onTestFinished(() => server.close());
  const signed: string[] = [];
  const failures: Error[] = [];
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PrivyProvider appId={TEST_APP_ID} apiUrl={server.url} config={config}>
      {children}
    </PrivyProvider>
  );
  const hook = renderHook(
    () => ({
      context: useContext(PrivyContext),
      email: useLoginWithEmail(),
      wallets: useWallets(),
      state: useEmbeddedWalletState(),
      create: useCreateWallet({ onError: (error) => failures.push(error) }),
      sign: useSignMessage({
        onSuccess: ({ signature }) => signed.push(signature),
        onError: (error) => failures.push(error),
      }),
      exporter: useExportWallet(),
    }),
    { wrapper },
  );
  await waitFor(() => expect(hook.result.current.context?.client?.store.getState().ready).toBe(true));
  const client = hook.result.current.context?.client;
  if (!client) throw new Error("no client");
  const frame: FakeWalletFrame = installFakeWalletFrame(client);
  const login = async () => {
    await act(() => hook.result.current.email.sendCode({ email: "ada@example.com" }));
    await act(() => hook.result.current.email.loginWithCode({ code: GOOD_CODE }));
  };
  return { hook, frame, login, signed, failures, current: () => hook.result.current };
}

describe("wallet hooks", () => {
  it("create the wallet on login and list it as a connected embedded wallet on the configured chain", async () => {
    const { current, frame, login } = await setup({
      embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" } },
      supportedChains: [somnia],
    });
    expect(current().wallets).toEqual({ ready: true, wallets: [] });
    await login();
    await waitFor(() => expect(current().wallets.wallets).toHaveLength(1));
    const [wallet] = current().wallets.wallets;
    expect(wallet).toMatchObject({
      address: frame.account(0).address,
      chainId: "eip155:50312",
      walletClientType: "privy",
      connectorType: "embedded",
      walletIndex: 0,
      imported: false,
    });
    expect(current().wallets.ready).toBe(true);
    expect(current().state).toEqual({ status: "ready", error: null });
    const provider = await wallet?.getEthereumProvider();
    expect(await provider?.request({ method: "eth_chainId" })).toBe("0xc488");
    await expect(wallet?.switchChain(1)).rejects.toMatchObject({
      code: 4902,
      message:
        "Chain ID 1 is not supported. It must be added to the config.supportedChains property of the PrivyProvider.",
    });
  });

  it("sign after the confirmation screen's answer: approved signs, refused fails with 4001", async () => {
    const { current, frame, login, signed, failures } = await setup({
      embeddedWallets: { ethereum: { createOnLogin: "all-users" } },
    });
    await login();
    await waitFor(() => expect(current().wallets.wallets).toHaveLength(1));
    const controller = current().context?.controller;
    if (!controller) throw new Error("no controller");

    let signing = current().sign.signMessage({ message: "Hello" }, { uiOptions: { title: "Prove it" } });
    await waitFor(() => expect(controller.getState()).toMatchObject({ open: true, flow: "confirm" }));
    expect(controller.getState().confirmation).toMatchObject({
      kind: "sign-message",
      message: "Hello",
      uiOptions: { title: "Prove it" },
    });
    act(() => controller.resolveConfirmation(true));
    const { signature } = await signing;
    expect(await recoverMessageAddress({ message: "Hello", signature: signature as `0x${string}` })).toBe(
      frame.account(0).address,
    );
    expect(signed).toEqual([signature]);

    signing = current().sign.signMessage({ message: "Again" });
    await waitFor(() => expect(controller.getState()).toMatchObject({ open: true, flow: "confirm" }));
    act(() => controller.close());
    await expect(signing).rejects.toMatchObject({ code: 4001, message: "User rejected the request." });
    expect(failures).toEqual([expect.objectContaining({ code: 4001 })]);
  });

  it("sign without asking when showWalletUIs is false; refuse an empty message", async () => {
    const { current, login, failures } = await setup({
      embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" }, showWalletUIs: false },
    });
    await login();
    await waitFor(() => expect(current().wallets.wallets).toHaveLength(1));
    await act(() => current().sign.signMessage({ message: "Headless" }));
    expect(current().context?.controller?.getState().open).toBe(false);
    await expect(current().sign.signMessage({ message: "" })).rejects.toThrow(
      "Message must be a non-empty string",
    );
    expect(failures.at(-1)?.message).toBe("Message must be a non-empty string");
  });

  it("createWallet refuses a second wallet; exportWallet opens the export screen for the first", async () => {
    const { current, login, failures, frame } = await setup({});
    await login();
    expect(current().wallets.wallets).toHaveLength(0);
    await expect(current().exporter.exportWallet()).rejects.toThrow(
      "The user has no embedded wallet to export.",
    );
    const wallet = await act(() => current().create.createWallet());
    expect(wallet).toMatchObject({ type: "wallet", address: frame.account(0).address, walletIndex: 0 });
    await expect(current().create.createWallet()).rejects.toThrow("User already has an embedded wallet.");
    expect(failures.at(-1)?.message).toBe("User already has an embedded wallet.");
    await expect(
      current().exporter.exportWallet({ address: "0x000000000000000000000000000000000000dEaD" }),
    ).rejects.toThrow("0x000000000000000000000000000000000000dEaD is not an embedded wallet of the user.");
    await act(() => current().exporter.exportWallet());
    await waitFor(() =>
      expect(current().context?.controller?.getState()).toMatchObject({
        open: true,
        flow: "export",
        exportAddress: frame.account(0).address,
      }),
    );
  });
});
