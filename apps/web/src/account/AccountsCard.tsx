import { useFarcasterSigner, useLinkAccount, usePrivy, useUpdateAccount, useUser } from "@symbolon/react";
import { useState } from "react";
import { formatPhone } from "./formatPhone";
import { linkErrorMessage } from "./linkErrorMessage";

type LinkedAccount = NonNullable<ReturnType<typeof useUser>["user"]>["linkedAccounts"][number];

/** The OAuth providers the demo offers, with their names as rows and buttons show them. */
export const DEMO_OAUTH_PROVIDERS = { google: "Google", github: "GitHub" } as const;
export type DemoOAuthProvider = keyof typeof DEMO_OAUTH_PROVIDERS;

/** What a row shows: the kind of account and its address, number, handle or id. */
function describe(account: LinkedAccount): { kind: string; value: string } | null {
  if (account.type === "email") return { kind: "Email", value: account.address };
  if (account.type === "phone") return { kind: "Phone", value: formatPhone(account.number) };
  if (account.type === "custom_auth") return { kind: "App account", value: account.customUserId };
  if (account.type === "google_oauth") return { kind: "Google", value: account.email ?? account.subject };
  if (account.type === "github_oauth") return { kind: "GitHub", value: account.username ?? account.subject };
  if (account.type === "telegram")
    return { kind: "Telegram", value: account.username ? `@${account.username}` : account.telegramUserId };
  if (account.type === "farcaster")
    return { kind: "Farcaster", value: account.username ? `@${account.username}` : String(account.fid) };
  // App B: the user's account of the provider app (cross-app login), by its wallet there.
  if (account.type === "cross_app")
    return { kind: "App A account", value: account.embeddedWallets[0]?.address ?? account.subject };
  // External wallets (SIWE, SIWS); the embedded wallet has its own card.
  if (account.type === "wallet" && account.connectorType !== "embedded")
    return {
      kind: account.chainType === "solana" ? "Solana wallet" : "Ethereum wallet",
      value: account.address,
    };
  return null;
}

/** Tells accounts apart, for noticing that the user's accounts changed. */
function accountKey(account: LinkedAccount): string {
  if (account.type === "email") return `email:${account.address}`;
  if (account.type === "phone") return `phone:${account.number}`;
  if (account.type === "wallet") return `wallet:${account.address}`;
  if (account.type === "passkey") return `passkey:${account.credentialId}`;
  if (account.type === "telegram") return `telegram:${account.telegramUserId}`;
  if (account.type === "farcaster") return `farcaster:${account.fid}`;
  if (account.type === "custom_auth") return `custom_auth:${account.customUserId}`;
  return `${account.type}:${account.subject}`;
}

/**
 * The signed-in user's linked accounts (email, phone, Google, GitHub, the host app's account, external wallets) with
 * Link, Update and Unlink. Linking and updating run in the modal (OAuth in the provider's popup);
 * unlinking the last account shows the server's refusal.
 */
export function AccountsCard({ oauthProviders = [] }: { oauthProviders?: readonly DemoOAuthProvider[] }) {
  const { user, unlinkEmail, unlinkPhone, unlinkGoogle, unlinkGithub } = useUser();
  // A message belongs to the accounts it was about: once they change (linked, unlinked elsewhere) it is stale.
  const accountsKey = (user?.linkedAccounts ?? []).map(accountKey).join(" ");
  const [note, setNote] = useState<{ text: string; accounts: string } | null>(null);
  const error = note?.accounts === accountsKey ? note.text : null;
  const setError = (text: string | null) => setNote(text === null ? null : { text, accounts: accountsKey });
  const [busy, setBusy] = useState<string | null>(null);
  const { unlinkTelegram, unlinkFarcaster, linkWallet, unlinkWallet } = usePrivy();
  const { requestFarcasterSignerFromWarpcast } = useFarcasterSigner();
  const { linkEmail, linkPhone, linkGoogle, linkGithub, linkTelegram, linkFarcaster } = useLinkAccount({
    // Cancelling (the modal or the account-transfer screen) shows nothing; other endings in words, not codes.
    onError: (code) => setError(linkErrorMessage(code)),
  });
  const link = { google: linkGoogle, github: linkGithub };
  const { updateEmail, updatePhone } = useUpdateAccount();
  if (!user) return null;

  const unlink = async (account: LinkedAccount, value: string) => {
    if (busy !== null) return;
    setError(null);
    setBusy(value);
    try {
      if (account.type === "email") await unlinkEmail(value);
      else if (account.type === "phone") await unlinkPhone(account.number);
      else if (account.type === "google_oauth") await unlinkGoogle(account.subject);
      else if (account.type === "github_oauth") await unlinkGithub(account.subject);
      else if (account.type === "telegram") await unlinkTelegram(account.telegramUserId);
      else if (account.type === "farcaster") await unlinkFarcaster(account.fid);
      else if (account.type === "wallet") await unlinkWallet(account.address);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not unlink this account.");
    } finally {
      setBusy(null);
    }
  };

  const rows = user.linkedAccounts.flatMap((account) => {
    const shown = describe(account);
    return shown ? [{ account, ...shown }] : [];
  });

  return (
    <section className="card card--accounts" aria-labelledby="accounts-title">
      <h2 className="card__title" id="accounts-title">
        Accounts
      </h2>
      <ul className="accounts">
        {rows.map(({ account, kind, value }) => (
          <li key={`${account.type}:${value}`} className="accounts__row">
            <span className="card__label">{kind}</span>
            <span className="accounts__value">{value}</span>
            {(account.type === "google_oauth" ||
              account.type === "github_oauth" ||
              account.type === "telegram" ||
              account.type === "farcaster" ||
              account.type === "wallet") && (
              <span className="accounts__actions">
                {account.type === "farcaster" &&
                  (account.signerPublicKey ? (
                    <span className="card__label">Signer approved</span>
                  ) : (
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      onClick={() => {
                        setError(null);
                        requestFarcasterSignerFromWarpcast().catch((e: unknown) =>
                          setError(e instanceof Error ? e.message : "The signer was not approved."),
                        );
                      }}
                    >
                      Request signer
                    </button>
                  ))}
                <UnlinkButton
                  kind={kind}
                  value={value}
                  busy={busy === value}
                  onClick={() => unlink(account, value)}
                />
              </span>
            )}
            {(account.type === "email" || account.type === "phone") && (
              <span className="accounts__actions">
                <button
                  type="button"
                  className="button button--ghost button--small"
                  aria-label={`Update ${kind.toLowerCase()} ${value}`}
                  onClick={account.type === "email" ? updateEmail : updatePhone}
                >
                  Update
                </button>
                <UnlinkButton
                  kind={kind}
                  value={value}
                  busy={busy === value}
                  onClick={() => unlink(account, value)}
                />
              </span>
            )}
          </li>
        ))}
      </ul>
      <div className="accounts__actions">
        {!user.email && (
          <button type="button" className="button button--small" onClick={linkEmail}>
            Link email
          </button>
        )}
        {!user.phone && (
          <button type="button" className="button button--small" onClick={linkPhone}>
            Link phone
          </button>
        )}
        {oauthProviders
          .filter((provider) => !user[provider])
          .map((provider) => (
            <button
              key={provider}
              type="button"
              className="button button--small"
              onClick={() => {
                setError(null);
                try {
                  link[provider]();
                } catch {
                  // Reported through onError.
                }
              }}
            >
              Link {DEMO_OAUTH_PROVIDERS[provider]}
            </button>
          ))}
        {!user.telegram && (
          <button
            type="button"
            className="button button--small"
            onClick={() => void linkTelegram().catch(() => {})}
          >
            Link Telegram
          </button>
        )}
        {!user.farcaster && (
          <button type="button" className="button button--small" onClick={linkFarcaster}>
            Link Farcaster
          </button>
        )}
        <button type="button" className="button button--small" onClick={linkWallet}>
          Link a wallet
        </button>
      </div>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </section>
  );
}

function UnlinkButton({
  kind,
  value,
  busy,
  onClick,
}: {
  kind: string;
  value: string;
  busy: boolean;
  onClick: () => Promise<void>;
}) {
  return (
    <button
      type="button"
      className="button button--ghost button--small"
      aria-label={`Unlink ${kind.toLowerCase()} ${value}`}
      aria-disabled={busy}
      onClick={() => void onClick()}
    >
      {busy ? "Unlinking…" : "Unlink"}
    </button>
  );
}
