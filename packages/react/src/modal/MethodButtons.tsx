import type { ReactNode } from "react";
import { useClientState } from "../hooks/useClientState";
import { useCrossAppNames } from "../hooks/useCrossAppNames";
import type { LoginMethodsActions } from "./flows/createLoginMethodsActions";
import { isOAuthMethod, type LoginMethod } from "./loginMethods";
import { providerName } from "./oauthProviders";
import { OWN_METHODS, type OwnMethod } from "./ownMethods";
import { ProviderLogo } from "./ProviderLogo";

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
  // Cross-app methods are named after their provider app.
  const crossAppNames = useCrossAppNames(methods);
  return (
    <div className="symbolon-methods">
      {methods.map((method) => {
        if (!isOAuthMethod(method)) {
          const { label, choose, Glyph } = OWN_METHODS[method] as OwnMethod;
          return Glyph ? (
            <button
              key={method}
              type="button"
              className="symbolon-secondary symbolon-provider"
              onClick={() => choose(actions)}
            >
              <Glyph />
              <span>{label}</span>
            </button>
          ) : (
            <button key={method} type="button" className="symbolon-secondary" onClick={() => choose(actions)}>
              {label}
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
