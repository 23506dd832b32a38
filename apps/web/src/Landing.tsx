import { type ThemePreference, usePrivy } from "@symbolon/react";
import { AccountsCard } from "./account/AccountsCard";
import { WalletCard } from "./account/WalletCard";
import { ThemeSwitch } from "./theme/ThemeSwitch";

/** The landing page: log in, or see who is signed in, their wallet, and log out. */
export function Landing({
  theme,
  onThemeChange,
  faucetRpcUrl,
}: {
  theme: ThemePreference;
  onThemeChange: (preference: ThemePreference) => void;
  /** Where "Get test STT" sends from (the local chain), or undefined to hide it. */
  faucetRpcUrl?: string;
}) {
  const { ready, authenticated, user, login, logout } = usePrivy();
  return (
    <div className="page">
      <header className="topbar">
        <span className="brand">
          <span className="brand__mark" aria-hidden="true">
            ◆
          </span>
          Symbolon
        </span>
        <ThemeSwitch value={theme} onChange={onThemeChange} />
      </header>
      <main className="hero">
        <h1>Symbolon</h1>
        <p className="hero__line">
          {ready && authenticated
            ? "You are signed in. Your account and wallet are below."
            : "Open, self-hostable login and embedded wallets. Sign in with a code from your inbox."}
        </p>
        {ready && authenticated ? (
          <>
            <section className="card" aria-label="Account">
              <p className="card__label">Signed in as</p>
              <p className="card__email" data-testid="user-email">
                {user?.email?.address ?? user?.id}
              </p>
              <button type="button" className="button button--ghost" onClick={() => void logout()}>
                Log out
              </button>
            </section>
            <AccountsCard />
            <WalletCard faucetRpcUrl={faucetRpcUrl} />
          </>
        ) : (
          <button type="button" className="button" disabled={!ready} onClick={login}>
            {ready ? "Log in" : "Loading…"}
          </button>
        )}
      </main>
      <footer className="footer">Wire-compatible with the Privy React client · Somnia Testnet</footer>
    </div>
  );
}
