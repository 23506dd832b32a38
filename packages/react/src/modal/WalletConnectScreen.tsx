import { type Client, MOBILE_BREAKPOINT_PX, type WalletOption } from "@symbolon/core";
import { useState } from "react";
import { useClientState } from "../hooks/useClientState";
import { useExternalWalletStyles } from "./externalWalletStyles";
import type { WalletScreenActions } from "./flows/createWalletActions";
import { QrCode } from "./QrCode";
import { ScreenTitle } from "./ScreenTitle";
import { useMediaQuery } from "./useMediaQuery";
import { WalletStatus } from "./WalletStatus";
import { walletOptionOf } from "./walletDirectory";
import { isUserRejection, walletErrorDetail } from "./walletErrorDetail";

/** Props of {@link WalletConnectScreen}. */
export interface WalletConnectScreenProps {
  client: Client;
  actions: WalletScreenActions;
  /** The `WalletOption.id` being connected. */
  walletId: string;
  /** The connection is starting: the store still describes the previous attempt. */
  pending?: boolean;
  /** Set when the wallet code could not load: shown as the failure. */
  loadError?: string | null;
  titleId: string;
  /** Cancel (the Phantom multichain failure): closes the modal. */
  onCancel: () => void;
}

/** Spec §2 Phantom multichain failure: Phantom answered, but not for Ethereum. */
export const PHANTOM_FAILURE = {
  title: "Could not connect with wallet",
  detail: "Please check that Phantom multichain is enabled and try again.",
} as const;

/**
 * Connecting a wallet (spec §4 wallet connection): waiting for the wallet, switching it to the app's
 * chain, the WalletConnect QR code (a "Copy link" button, and on narrow screens a link that opens the
 * wallet app), or the failure with Try again — a 4001 reads as "You declined…", Phantom without its
 * Ethereum side gets the spec §2 Phantom multichain screen (Try again, Cancel). Loaded lazily.
 */
export default function WalletConnectScreen({
  client,
  actions,
  walletId,
  pending = false,
  loadError = null,
  titleId,
  onCancel,
}: WalletConnectScreenProps) {
  useExternalWalletStyles();
  const connection = useClientState("WalletConnectScreen", (s) => s.externalWallets.connection, null);
  const option = walletOptionOf(client, walletId);
  const name = option?.name ?? "your wallet";
  const ours = !pending && connection !== null && connection.walletId === walletId;
  const status = ours ? connection.status : "connecting";
  const error = loadError
    ? { message: loadError }
    : ours && status === "disconnected"
      ? connection.error
      : null;

  if (error) {
    if (isPhantomEthereum(option) && !isUserRejection(error))
      return (
        <WalletStatus
          option={option}
          name={name}
          state="failed"
          titleId={titleId}
          title={PHANTOM_FAILURE.title}
        >
          <p className="symbolon-alert" role="alert">
            {PHANTOM_FAILURE.detail}
          </p>
          <Actions primary={["Try again", actions.retryWallet]} secondary={["Cancel", onCancel]} />
        </WalletStatus>
      );
    return (
      <WalletStatus
        option={option}
        name={name}
        state="failed"
        titleId={titleId}
        title={`Could not connect to ${name}`}
      >
        <p className="symbolon-alert" role="alert">
          {walletErrorDetail(error, name, "connect")}
        </p>
        <Actions primary={["Try again", actions.retryWallet]} secondary={["Back", actions.showWallets]} />
      </WalletStatus>
    );
  }
  if (option?.connectorType === "wallet_connect" && status === "connecting")
    return (
      <PairingCode
        option={option}
        uri={ours ? connection.pairingUri : null}
        titleId={titleId}
        onBack={actions.showWallets}
      />
    );
  const switching = status === "switching_to_supported_chain";
  return (
    <WalletStatus
      option={option}
      name={name}
      state={status === "connected" ? "done" : "busy"}
      titleId={titleId}
      title={
        switching
          ? "Switching network"
          : status === "connected"
            ? `Connected to ${name}`
            : `Waiting for ${name}`
      }
    >
      <p className="symbolon-subtitle" role="status">
        {switching ? `Approve the network switch in ${name}` : `Open ${name} to continue`}
      </p>
      <button type="button" className="symbolon-link" onClick={actions.showWallets}>
        Back
      </button>
    </WalletStatus>
  );
}

/** Phantom's Ethereum side in this browser (the extension's injected Ethereum provider). */
function isPhantomEthereum(option: WalletOption | null): option is WalletOption {
  return (
    option?.walletClientType === "phantom" &&
    option.chainType === "ethereum" &&
    option.connectorType === "injected"
  );
}

/** A primary and a secondary button, each `[label, action]`. */
function Actions({ primary, secondary }: { primary: [string, () => void]; secondary: [string, () => void] }) {
  return (
    <div className="symbolon-methods">
      <button type="button" className="symbolon-button" onClick={primary[1]}>
        {primary[0]}
      </button>
      <button type="button" className="symbolon-secondary" onClick={secondary[1]}>
        {secondary[0]}
      </button>
    </div>
  );
}

/**
 * WalletConnect pairing: the QR code of the pairing URI on wide screens, a link that opens the wallet
 * app on narrow ones (the listing's universal link, or the `wc:` URI itself), and "Copy link".
 */
function PairingCode({
  option,
  uri,
  titleId,
  onBack,
}: {
  option: WalletOption;
  uri: string | null;
  titleId: string;
  onBack: () => void;
}) {
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const [copied, setCopied] = useState<string | null>(null);
  const generic = option.walletClientType === "wallet_connect";
  const app = generic ? "your wallet app" : option.name;
  const copy = () => {
    if (!uri) return;
    const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
    if (!clipboard) {
      setCopied("Copying is not available here.");
      return;
    }
    clipboard.writeText(uri).then(
      () => setCopied("Link copied"),
      () => setCopied("Copying is not available here."),
    );
  };
  const status = !uri
    ? "Preparing the connection: reaching the WalletConnect relay…"
    : mobile
      ? `Open ${app} to continue`
      : `Scan with ${app} to connect`;
  return (
    <>
      <ScreenTitle id={titleId} focus>
        {generic ? "Connect with WalletConnect" : `Connect ${option.name}`}
      </ScreenTitle>
      <p className="symbolon-subtitle" role="status">
        {status}
      </p>
      {uri && !mobile && (
        <div className="symbolon-qr">
          <QrCode value={uri} label="WalletConnect QR code" />
        </div>
      )}
      {!uri && (
        <div className="symbolon-wallet-status">
          <span className="symbolon-spinner" aria-hidden="true" />
        </div>
      )}
      <div className="symbolon-methods">
        {uri && mobile && (
          <a className="symbolon-button symbolon-provider" href={deepLink(option, uri)}>
            Open {generic ? "wallet" : option.name}
          </a>
        )}
        {uri && (
          <button type="button" className="symbolon-secondary" onClick={copy}>
            Copy link
          </button>
        )}
        <p className="symbolon-status" aria-live="polite">
          {copied ?? ""}
        </p>
        <button type="button" className="symbolon-link" onClick={onBack}>
          Back
        </button>
      </div>
    </>
  );
}

/** The link that opens the wallet app with the pairing URI: its universal link's `wc` path, else the `wc:` URI. */
function deepLink(option: WalletOption, uri: string): string {
  const base = option.links?.mobile;
  if (!base) return uri;
  return `${base.endsWith("/") ? base : `${base}/`}wc?uri=${encodeURIComponent(uri)}`;
}
