import { type Client, discoverWallets, type WalletOption } from "@symbolon/core";
import { type KeyboardEvent, useEffect, useMemo, useState } from "react";
import { useClientState } from "../hooks/useClientState";
import { useExternalWalletStyles } from "./externalWalletStyles";
import type { WalletScreenActions } from "./flows/createWalletActions";
import { ScreenTitle } from "./ScreenTitle";
import { WalletIcon } from "./WalletIcon";
import { loadWalletDirectory } from "./walletDirectory";

/** Props of {@link WalletListScreen}. */
export interface WalletListScreenProps {
  client: Client;
  actions: Pick<WalletScreenActions, "chooseWallet">;
  /** What picking a wallet does: sign in, link it, or only connect it. */
  purpose: "login" | "link" | "connect";
  appName: string;
  titleId: string;
  onBack?: (() => void) | undefined;
}

const EMPTY: WalletOption[] = [];
/** Above this many wallets a search field filters the list. */
const SEARCH_FROM = 8;
const CHAIN_LABELS = { ethereum: "Ethereum", solana: "Solana" } as const;
const TITLES = { login: "Log in with a wallet", link: "Link a wallet", connect: "Connect a wallet" } as const;

/**
 * The external wallets to pick from: the ones installed in this browser first (EIP-6963, Wallet
 * Standard, `window.ethereum`), then WalletConnect and Coinbase Wallet, then the wallet directory
 * (spec §7) when the app has a WalletConnect project id. A list of buttons (Arrow keys move between
 * them), each with the wallet's icon, its chain and an "Installed" badge. Loaded lazily.
 */
export default function WalletListScreen({
  client,
  actions,
  purpose,
  appName,
  titleId,
  onBack,
}: WalletListScreenProps) {
  useExternalWalletStyles();
  const options = useClientState("WalletListScreen", (s) => s.externalWallets.options, EMPTY);
  const [discovering, setDiscovering] = useState(true);
  const [directory, setDirectory] = useState<WalletOption[]>(EMPTY);
  const [query, setQuery] = useState("");

  useEffect(() => {
    let live = true;
    void discoverWallets(client).finally(() => live && setDiscovering(false));
    void loadWalletDirectory(client).then((list) => live && setDirectory(list));
    return () => {
      live = false;
    };
  }, [client]);

  // Installed first, then the always-offered connectors, then directory listings not shown already.
  const all = useMemo(() => {
    const shown = [...options.filter((o) => o.installed), ...options.filter((o) => !o.installed)];
    const types = new Set(shown.map((o) => o.walletClientType));
    return [...shown, ...directory.filter((o) => !types.has(o.walletClientType))];
  }, [options, directory]);
  const needle = query.trim().toLowerCase();
  const visible = needle ? all.filter((o) => o.name.toLowerCase().includes(needle)) : all;
  const installed = options.filter((o) => o.installed).length;
  const status = discovering
    ? "Looking for wallets in this browser…"
    : needle
      ? `${visible.length} ${visible.length === 1 ? "wallet matches" : "wallets match"}`
      : installed === 0
        ? "No wallet found in this browser. Connect one from your phone with WalletConnect."
        : `${installed} ${installed === 1 ? "wallet" : "wallets"} found in this browser`;

  return (
    <>
      <ScreenTitle id={titleId} focus>
        {TITLES[purpose]}
      </ScreenTitle>
      <p className="symbolon-subtitle">
        {purpose === "link"
          ? "Choose the wallet to add to your account."
          : `Choose a wallet to continue to ${appName}.`}
      </p>
      {all.length > SEARCH_FROM && (
        <input
          className="symbolon-input"
          type="search"
          aria-label="Search wallets"
          placeholder="Search wallets"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      <p className="symbolon-status" role="status" aria-live="polite">
        {status}
      </p>
      <ul className="symbolon-wallets" aria-label="Wallets" onKeyDown={moveFocus}>
        {visible.map((option) => (
          <li key={option.id}>
            <button
              type="button"
              className="symbolon-wallet"
              data-wallet-id={option.id}
              onClick={() => actions.chooseWallet(option.id)}
            >
              <WalletIcon
                icon={option.icon}
                name={option.name}
                walletClientType={option.walletClientType}
                alt=""
              />
              {/* Spaces between the parts: the button's name reads "<name> <chain> Installed". */}
              <span className="symbolon-wallet-text">
                <span className="symbolon-wallet-name">{option.name}</span>{" "}
                <span className="symbolon-wallet-chain">{CHAIN_LABELS[option.chainType]}</span>
              </span>
              {option.installed && (
                <>
                  {" "}
                  <span className="symbolon-badge symbolon-badge--installed">Installed</span>
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
      {onBack && (
        <button type="button" className="symbolon-link" onClick={onBack}>
          Back
        </button>
      )}
    </>
  );
}

/** Arrow keys, Home and End move focus between the list's buttons (Tab still leaves the list). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>("button"));
  const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === "ArrowDown"
      ? Math.min(index + 1, buttons.length - 1)
      : event.key === "ArrowUp"
        ? Math.max(index - 1, 0)
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? buttons.length - 1
            : null;
  if (next === null || index === -1) return;
  event.preventDefault();
  buttons[next]?.focus();
}
