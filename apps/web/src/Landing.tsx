import { type ThemePreference, useGuestAccounts, useLoginWithOAuth, usePrivy } from "@symbolon/react";
import { useState } from "react";
import { AccountsCard, DEMO_OAUTH_PROVIDERS, type DemoOAuthProvider } from "./account/AccountsCard";
import { CopyButton } from "./account/CopyButton";
import { CrossAppCard, CrossAppLoginButton } from "./account/CrossAppCard";
import { DelegationCard } from "./account/DelegationCard";
import { formatPhone } from "./account/formatPhone";
import { HostSignIn } from "./account/HostSignIn";
import { LogoutButton } from "./account/LogoutButton";
import { SecurityCard } from "./account/SecurityCard";
import { WalletCard } from "./account/WalletCard";
import { ThemeSwitch } from "./theme/ThemeSwitch";

/** The landing page: log in, or see who is signed in, their wallet, and log out. */
export function Landing({
  appLabel,
  oauthProviders = [],
  theme,
  onThemeChange,
  faucetRpcUrl,
  hostAuthUrl,
  onHostToken,
  crossAppProviderId,
  security = true,
}: {
  /** Which demo app this is, when not the main one ("App B"). */
  appLabel?: string | undefined;
  /** The OAuth providers the app offers (Link buttons, full-page sign-in). */
  oauthProviders?: readonly DemoOAuthProvider[];
  theme: ThemePreference;
  onThemeChange: (preference: ThemePreference) => void;
  /** Where "Get test STT" sends from (the local chain), or undefined to hide it. */
  faucetRpcUrl?: string;
  /** The host-auth stand-in (custom auth demo), if any. */
  hostAuthUrl?: string | undefined;
  /** The host user signed in (a token) or out (null). */
  onHostToken?: (token: string | null) => void;
  /** App B: the provider app its users may log in with (cross-app). */
  crossAppProviderId?: string | undefined;
  /** The Security card (passkeys, 2-step verification); app B has neither. */
  security?: boolean;
}) {
  const { ready, authenticated, user, login, logout } = usePrivy();
  const { createGuestAccount } = useGuestAccounts();
  const [guestError, setGuestError] = useState<string | null>(null);
  const signedIn = ready && authenticated;
  // The headless flow: the whole page goes to the provider and comes back (the modal uses a popup).
  const { initOAuth, state: oauthState } = useLoginWithOAuth();
  // A user who signed in with a browser wallet (SIWE, SIWS) is shown by its address.
  const externalWallet = user?.linkedAccounts.find(
    (a) => a.type === "wallet" && a.connectorType !== "embedded",
  );
  // App B's user of app A (cross-app): its wallet there has its own card.
  const crossApp = user?.linkedAccounts.find((a) => a.type === "cross_app");
  // The user's did has its own line: never shown here as well.
  const shownAs =
    user?.email?.address ??
    (user?.phone ? formatPhone(user.phone.number) : undefined) ??
    user?.google?.email ??
    user?.github?.username ??
    user?.customAuth?.customUserId ??
    (user?.telegram ? `@${user.telegram.username ?? user.telegram.telegramUserId}` : undefined) ??
    (user?.farcaster ? `@${user.farcaster.username ?? user.farcaster.fid}` : undefined) ??
    (externalWallet?.type === "wallet" ? externalWallet.address : undefined) ??
    (crossApp ? "Your app A account" : undefined) ??
    (user?.isGuest ? "Guest" : "Your account");
  const continueAsGuest = () => {
    setGuestError(null);
    createGuestAccount().catch((e: unknown) =>
      setGuestError(e instanceof Error ? e.message : "Could not continue as a guest."),
    );
  };
  return (
    <div className="page">
      <header className="topbar">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true">
            ◆
          </span>
          Symbolon
          {appLabel && <span data-testid="app-label">· {appLabel}</span>}
        </span>
        <ThemeSwitch value={theme} onChange={onThemeChange} />
      </header>
      {signedIn ? (
        <main className="dashboard">
          <div className="dashboard__intro">
            <h1>Your account</h1>
            <p className="hero__line">
              Your sign-in methods, security and wallet{appLabel ? ` in ${appLabel}` : ""}.
            </p>
          </div>
          <div className="cards">
            <section className="card card--summary" aria-label="Account">
              <p className="card__label">Signed in as</p>
              <p className="card__email" data-testid="user-email">
                {shownAs}
              </p>
              <p className="card__label">User ID</p>
              <p className="card__id">
                <code className="wallet-address" data-testid="user-id">
                  {user?.id}
                </code>
                {user?.id && <CopyButton text={user.id} label="Copy user ID" />}
              </p>
              <div className="card__actions">
                {user?.isGuest && (
                  <button type="button" className="button" onClick={login}>
                    Log in
                  </button>
                )}
                <LogoutButton
                  isGuest={user?.isGuest ?? false}
                  onLogout={() => {
                    onHostToken?.(null);
                    void logout();
                  }}
                />
              </div>
            </section>
            <AccountsCard oauthProviders={oauthProviders} />
            {security && <SecurityCard />}
            {crossAppProviderId && <CrossAppCard providerAppId={crossAppProviderId} />}
            <WalletCard faucetRpcUrl={faucetRpcUrl} />
            <DelegationCard />
          </div>
        </main>
      ) : (
        <main className="hero">
          <h1>Symbolon</h1>
          <p className="hero__line">
            {`Open, self-hostable login and embedded wallets. Sign in with ${oauthProviders.length > 0 ? "a passkey, Google, GitHub or " : ""}a code sent to your email or phone.`}
          </p>
          <button type="button" className="button" disabled={!ready} onClick={login}>
            {ready ? "Log in" : "Loading…"}
          </button>
          <button type="button" className="button button--ghost" disabled={!ready} onClick={continueAsGuest}>
            Continue as guest
          </button>
          {crossAppProviderId && <CrossAppLoginButton providerAppId={crossAppProviderId} disabled={!ready} />}
          {oauthProviders.length > 0 && (
            <p className="full-page-sign-in">
              <span className="card__label">Full-page sign-in</span>
              {oauthProviders.map((provider) => (
                <button
                  key={provider}
                  type="button"
                  className="button button--ghost button--small"
                  disabled={!ready}
                  onClick={() => void initOAuth({ provider, display: "redirect" }).catch(() => {})}
                >
                  {DEMO_OAUTH_PROVIDERS[provider]} (full page)
                </button>
              ))}
            </p>
          )}
          {oauthState.status === "error" && oauthState.error && (
            <p role="alert" className="field__error">
              {oauthState.error.message}
            </p>
          )}
          {guestError && (
            <p role="alert" className="field__error">
              {guestError}
            </p>
          )}
          {hostAuthUrl && onHostToken && <HostSignIn hostAuthUrl={hostAuthUrl} onToken={onHostToken} />}
        </main>
      )}
      <footer className="footer">Wire-compatible with the Privy React client · Somnia Testnet</footer>
    </div>
  );
}
