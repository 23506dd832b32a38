import type { Client, SiweFlowStatus } from "@symbolon/core";
import { useClientState } from "../hooks/useClientState";
import { useExternalWalletStyles } from "./externalWalletStyles";
import type { WalletScreenActions } from "./flows/createWalletActions";
import { shortenAddress } from "./shortenAddress";
import { WalletStatus } from "./WalletStatus";
import { walletOptionOf } from "./walletDirectory";
import { walletErrorDetail } from "./walletErrorDetail";

/** Props of {@link WalletSignScreen}. */
export interface WalletSignScreenProps {
  client: Client;
  actions: WalletScreenActions;
  /** Sign in, or link the wallet to the signed-in user. */
  purpose: "login" | "link";
  walletId: string;
  /** The connected address that signs. */
  address: string;
  /** The sign-in is starting: the store still describes the previous attempt. */
  pending?: boolean;
  /** Set when the wallet code could not load: shown as the failure. */
  loadError?: string | null;
  titleId: string;
}

/** What each step of the spec §4 SIWE flow tells the person (announced as it changes). */
export const SIGN_STEPS: Record<Exclude<SiweFlowStatus, "error">, string> = {
  initial: "Preparing the sign-in message…",
  "generating-message": "Preparing the sign-in message…",
  "awaiting-signature": "Sign the message in your wallet to continue",
  "submitting-signature": "Checking your signature…",
  done: "Signed in",
};

/**
 * Sign-In With Ethereum / Solana with the connected wallet (spec §4 SIWE flow: generating-message,
 * awaiting-signature, submitting-signature, done or error). On error: the reason (a 4001 reads as
 * "You declined…", never the raw error) with Try again, which asks for the signature again. Loaded lazily.
 */
export default function WalletSignScreen({
  client,
  actions,
  purpose,
  walletId,
  address,
  pending = false,
  loadError = null,
  titleId,
}: WalletSignScreenProps) {
  useExternalWalletStyles();
  const siwe = useClientState("WalletSignScreen", (s) => s.externalWallets.siwe, null);
  const option = walletOptionOf(client, walletId);
  const name = option?.name ?? "your wallet";
  const status = loadError ? "error" : pending ? "initial" : (siwe?.status ?? "initial");

  if (status === "error") {
    return (
      <WalletStatus
        option={option}
        name={name}
        state="failed"
        titleId={titleId}
        title={purpose === "link" ? "Could not link the wallet" : "Could not sign in"}
      >
        <p className="symbolon-alert" role="alert">
          {walletErrorDetail(loadError ? { message: loadError } : (siwe?.error ?? null), name, "sign")}
        </p>
        <div className="symbolon-methods">
          <button type="button" className="symbolon-button" onClick={actions.retryWallet}>
            Try again
          </button>
          <button type="button" className="symbolon-secondary" onClick={actions.showWallets}>
            Use another wallet
          </button>
        </div>
      </WalletStatus>
    );
  }
  return (
    <WalletStatus
      option={option}
      name={name}
      state={status === "done" ? "done" : "busy"}
      titleId={titleId}
      title={purpose === "link" ? `Link ${name}` : `Sign in with ${name}`}
    >
      <p className="symbolon-subtitle" title={address}>
        {shortenAddress(address)}
      </p>
      <p className="symbolon-status" role="status" aria-live="polite">
        {SIGN_STEPS[status]}
      </p>
    </WalletStatus>
  );
}
