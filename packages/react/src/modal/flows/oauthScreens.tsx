import { lazy } from "react";
import { providerName } from "../oauthProviders";
import { always, backOf, type LoginScreenContext, statusOf } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { OAuthScreenState } from "./createOAuthFlow";

// OAuth screens load only once a provider was chosen (or a redirect came back).
const OAuthStatusScreen = lazy(() => import("../OAuthStatusScreen"));
// Cross-app login (provider `privy:{appId}`): its own status screen.
const CrossAppStatusScreen = lazy(() => import("../CrossAppStatusScreen"));
const InAppBrowserScreen = lazy(() => import("../InAppBrowserScreen"));

const OAUTH_SCREENS: FlowScreens<OAuthScreenState, LoginScreenContext> = {
  "cross-app": {
    render: (screen, context) => (
      <CrossAppStatusScreen
        client={context.client}
        provider={screen.provider}
        status={statusOf(screen.provider, context)}
        onRetry={context.flows.oauth.retryOAuth}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
  oauth: {
    render: (screen, context) => (
      <OAuthStatusScreen
        provider={providerName(screen.provider, context.appConfig)}
        status={statusOf(screen.provider, context)}
        error={context.oauthFlow?.error ?? null}
        onRetry={context.flows.oauth.retryOAuth}
        onBack={backOf(screen.flow, context)}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
  "in-app-browser": {
    render: (screen, context) => (
      <InAppBrowserScreen
        provider={providerName(screen.provider, context.appConfig)}
        onBack={backOf(screen.flow, context) ?? context.close}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
};
export default OAUTH_SCREENS;
