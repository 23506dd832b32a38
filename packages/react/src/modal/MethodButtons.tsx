import type { ReactNode } from "react";
import { useClientState } from "../hooks/useClientState";
import { useCrossAppNames } from "../hooks/useCrossAppNames";
import type { LoginMethodsActions, MethodChoice } from "./flows/createLoginMethodsActions";
import { isOAuthMethod, type LoginMethod } from "./loginMethods";
import { providerName } from "./oauthProviders";
import { ProviderLogo } from "./ProviderLogo";

/** The button of a code method that is not shown inline. */
const CODE_LABELS: Record<string, string> = {
  email: "Continue with email",
  sms: "Continue with SMS",
  telegram: "Telegram",
  farcaster: "Farcaster",
  wallet: "Continue with a wallet",
  passkey: "Continue with a passkey",
};

/** A wallet glyph for "Continue with a wallet" (decorative: the text names the method). */
function WalletGlyph() {
  return (
    <svg className="symbolon-provider-logo" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <rect
        x="2"
        y="4.5"
        width="16"
        height="12"
        rx="2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
      />
      <path
        d="M4.5 4.5l8-2.5 1 2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
      <circle cx="14" cy="10.5" r="1.3" fill="currentColor" />
    </svg>
  );
}

/** A passkey glyph for "Continue with a passkey": a person with a key (decorative). */
export function PasskeyGlyph({ size = 20 }: { size?: number }) {
  return (
    <svg className="symbolon-provider-logo" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <circle cx="9" cy="7" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M2 20c0-3.3 3.1-6 7-6 1.2 0 2.3.2 3.3.7"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <circle cx="18" cy="12.5" r="2.6" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M18 15.1V21m0-2.6h1.8M18 21h1.4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * One button per login method ("Continue with SMS", "Continue with Google" with its mark), then
 * `children` (e.g. "More options"). An OAuth button starts the provider's flow at once: the popup
 * must open within the click.
 */
export function MethodButtons({
  actions,
  methods,
  children,
}: {
  actions: LoginMethodsActions;
  methods: readonly LoginMethod[];
  children?: ReactNode;
}) {
  const config = useClientState("MethodButtons", (s) => s.appConfig, null);
  const choose = (method: MethodChoice | "telegram") => {
    // Telegram's popup must open in the click itself (browsers block popups opened later).
    if (method === "telegram") actions.startTelegram();
    else actions.chooseMethod(method);
  };
  // Cross-app methods are named after their provider app.
  const crossAppNames = useCrossAppNames(methods);
  return (
    <div className="symbolon-methods">
      {methods.map((method) => {
        if (method === "wallet" || method === "passkey") {
          return (
            <button
              key={method}
              type="button"
              className="symbolon-secondary symbolon-provider"
              onClick={() => choose(method)}
            >
              {method === "wallet" ? <WalletGlyph /> : <PasskeyGlyph />}
              <span>{CODE_LABELS[method]}</span>
            </button>
          );
        }
        if (!isOAuthMethod(method)) {
          return (
            <button key={method} type="button" className="symbolon-secondary" onClick={() => choose(method)}>
              {CODE_LABELS[method]}
            </button>
          );
        }
        const name = crossAppNames[method] ?? providerName(method, config);
        const icon = config?.custom_oauth_providers?.find((p) => p.provider === method)?.provider_icon_url;
        return (
          <button
            key={method}
            type="button"
            className="symbolon-secondary symbolon-provider"
            onClick={() => actions.startOAuth(method)}
          >
            <ProviderLogo provider={method} name={name} iconUrl={icon ?? null} />
            <span>Continue with {name}</span>
          </button>
        );
      })}
      {children}
    </div>
  );
}
