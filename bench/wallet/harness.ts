// A bare page over @symbolon/core for the signing benchmark: headless signing (no confirmation screen), so
// the time measured is the client's own round trip — hook-level call → frame → wasm → signature back. Then it
// delegates the wallet, for the wallet-API benchmark (a host back end signing through the signer).
import {
  createClient,
  delegateWallet,
  embeddedWalletState,
  initialize,
  loginWithEmailCode,
  sendEmailCode,
} from "@symbolon/core";
import { signMessage } from "@symbolon/core/wallet";

declare global {
  interface Window {
    bench: {
      start(options: { appId: string; apiUrl: string }): Promise<void>;
      sendCode(email: string): Promise<void>;
      login(code: string): Promise<string>;
      sign(count: number): Promise<number[]>;
      delegate(): Promise<string>;
    };
  }
}

let client: ReturnType<typeof createClient>;
let address = "";

window.bench = {
  async start({ appId, apiUrl }) {
    client = createClient({
      appId,
      apiUrl,
      embeddedWallets: { ethereum: { createOnLogin: "users-without-wallets" }, showWalletUIs: false },
    });
    await initialize(client);
  },
  async sendCode(email) {
    await sendEmailCode(client, { email });
  },
  /** Logs in (creating the wallet) and returns its address. */
  async login(code) {
    await loginWithEmailCode(client, { code });
    const deadline = performance.now() + 60_000;
    for (;;) {
      const wallet = client.store
        .getState()
        .user?.linked_accounts.find((a) => a.type === "wallet" && a.connector_type === "embedded");
      if (wallet && embeddedWalletState(client.store.getState()).status === "ready") {
        address = wallet.address;
        return address;
      }
      if (performance.now() > deadline) throw new Error("no wallet 60 s after login");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  },
  /** Signs `count` distinct messages one after another; returns each round trip in ms. */
  async sign(count) {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const { signature } = await signMessage(client, { message: `bench ${i}` }, { address });
      times.push(performance.now() - started);
      if (!signature.startsWith("0x")) throw new Error(`bad signature ${signature}`);
    }
    return times;
  },
  /** Delegates the wallet to the app's default signers (the wallet-API benchmark signs with it); its address. */
  async delegate() {
    await delegateWallet(client, { address, chainType: "ethereum" });
    return address;
  },
};
