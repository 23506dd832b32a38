import { useState } from "react";
import { numberToHex, parseEther } from "viem";
import { errorMessage } from "./errorMessage";
import { jsonRpc } from "./jsonRpc";
import { waitForReceipt } from "./waitForReceipt";

/** Anvil's dev account 0: unlocked, so anvil signs `eth_sendTransaction` from it itself. */
export const LOCAL_FUNDER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
/** What one press of "Get test STT" sends. */
const DRIP = parseEther("1");

/** Props of {@link Faucet}. */
export interface FaucetProps {
  /** The local chain's RPC (anvil); the faucet only exists when VITE_LOCAL_FAUCET is "true". */
  rpcUrl: string;
  address: string;
  /** Called once the funds are mined, so the balance can refresh. */
  onFunded: () => void;
}

/** "Get test STT": 1 STT from anvil's dev account, for local development and the e2e suite. */
export function Faucet({ rpcUrl, address, onFunded }: FaucetProps) {
  const [state, setState] = useState<"idle" | "sending" | "done">("idle");
  const [error, setError] = useState<string | null>(null);

  const drip = async () => {
    setState("sending");
    setError(null);
    try {
      const request = (method: string, params: unknown[]) => jsonRpc(rpcUrl, method, params);
      const hash = await request("eth_sendTransaction", [
        { from: LOCAL_FUNDER, to: address, value: numberToHex(DRIP) },
      ]);
      await waitForReceipt(request, String(hash));
      setState("done");
      onFunded();
    } catch (failure) {
      setError(errorMessage(failure));
      setState("idle");
    }
  };

  return (
    <div className="wallet-form">
      <h3 className="wallet-form__title">Test funds</h3>
      <button
        type="button"
        className="button button--small button--ghost"
        disabled={state === "sending"}
        onClick={() => void drip()}
      >
        Get test STT
      </button>
      <p role="status" className="wallet-form__hint">
        {state === "sending" ? "Sending 1 STT…" : state === "done" ? "Received 1 STT." : ""}
      </p>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
