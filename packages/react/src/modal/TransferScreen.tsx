import { type Client, describeError } from "@symbolon/core";
import { useState } from "react";
import { transfer, transferTelegramAccount } from "./accountActions";
import type { TransferActions } from "./flows/createTransferActions";
import type { TransferOffer } from "./flows/toRefusal";
import { providerName } from "./oauthProviders";
import { ScreenTitle } from "./ScreenTitle";
import { shortenAddress } from "./shortenAddress";

/** Props of {@link TransferScreen}. */
export interface TransferScreenProps {
  client: Client;
  actions: TransferActions;
  offer: TransferOffer;
  appName: string;
  titleId?: string | undefined;
  onCancel: () => void;
}

/**
 * The account being linked belongs to another user, and can be moved (`account_transfer_required`):
 * shows which account and what happens to the other user, then Transfer (with the refusal's nonce)
 * or Cancel. Loaded lazily.
 */
export default function TransferScreen({
  client,
  actions,
  offer,
  appName,
  titleId,
  onCancel,
}: TransferScreenProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const oauth = offer.oauthUserInfo;
  const accountType = oauth
    ? offer.accountType
    : offer.accountType === "phone" || offer.accountType === "sms"
      ? "phone"
      : offer.accountType === "farcaster" ||
          offer.accountType === "telegram" ||
          offer.accountType === "wallet"
        ? offer.accountType
        : "email";
  const kinds: Record<string, string> = {
    phone: "phone number",
    email: "email address",
    farcaster: "Farcaster account",
    telegram: "Telegram account",
    wallet: "wallet",
  };
  const what = oauth ? `${providerName(oauth.provider)} account` : kinds[accountType];

  const run = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const user = oauth
        ? await transfer(client, accountType, offer.nonce, oauth.subject, oauth)
        : accountType === "telegram"
          ? await transferTelegramAccount(client, offer.nonce, offer.telegramProof)
          : await transfer(client, accountType, offer.nonce, offer.displayName);
      actions.transferred(user);
    } catch (cause) {
      setBusy(false);
      if (!actions.refuse(cause)) setError(describeError(cause));
    }
  };

  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Transfer this {what}?
      </ScreenTitle>
      <p className="symbolon-subtitle">
        <strong>{offer.displayName}</strong> already belongs to another {appName} account. Transferring moves
        it to this account: the other account can no longer log in with it.
        {offer.embeddedWalletAddress && (
          <>
            {" "}
            Its wallet{" "}
            <span title={offer.embeddedWalletAddress}>{shortenAddress(offer.embeddedWalletAddress)}</span>{" "}
            stays with the other account.
          </>
        )}
      </p>
      {error && (
        <p role="alert" className="symbolon-alert">
          {error}
        </p>
      )}
      <button type="button" className="symbolon-button" aria-disabled={busy} onClick={() => void run()}>
        {busy ? "Transferring" : "Transfer"}
      </button>
      <button type="button" className="symbolon-link" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
