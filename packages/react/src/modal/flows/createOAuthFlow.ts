import {
  type Client,
  cancelOAuth,
  handleOAuthReturn,
  isOAuthError,
  type LoginResult,
  linkOAuth,
  loginWithOAuth,
} from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow, isSignedIn } from "./createAccountFlow";
import { REFUSAL_FLOW } from "./createRefusalFlow";
import type { SignInFlowKind } from "./signInTypes";

/** Spec §4 "after OAuth success, each step after a short delay": how long "Successfully connected" stays. */
export const OAUTH_STEP_DELAY_MS = 1200;

/**
 * The OAuth screens (spec §2): a provider's connection status (`cross-app`: a Privy app's, provider
 * `privy:{appId}`), or `in-app-browser` when the provider refuses this browser.
 */
export type OAuthScreenState =
  | OAuthScreen<"oauth">
  | OAuthScreen<"cross-app">
  | OAuthScreen<"in-app-browser">;

type OAuthScreen<Name> = {
  flow: SignInFlowKind;
  screen: Name;
  /** `google`, `custom:<name>`, `privy:<appId>`, … */
  provider: string;
};

/** What the login screen and the OAuth screens call. */
export interface OAuthActions {
  /**
   * Login screen (or a link flow): start the provider's OAuth flow now — call it within the click,
   * the popup opens synchronously — and show its status screen.
   */
  startOAuth(provider: string): void;
  /** The status screen's Retry: the same provider again. */
  retryOAuth(): void;
}

/** The modal's OAuth logins, links and returns. */
export interface OAuthFlow extends OAuthActions {
  /** Open the link flow for an OAuth provider and start it (within the click, like `startOAuth`). */
  openLinkOAuth(provider: string): void;
  /**
   * On page load: completes an OAuth return (core `handleOAuthReturn`); one the modal started
   * before a full-page redirect reopens the modal on its status screen.
   */
  handleOAuthReturn(): void;
}

/** Refusals of an OAuth login that go to their own screens (spec §8); the rest stay on the status screen. */
const OAUTH_ROUTED = new Set([
  "allowlist_rejected",
  "max_accounts_reached",
  "user_does_not_exist",
  "signup_disabled",
  "account_transfer_required",
]);

/** The status screen of `provider`'s connection. */
const statusScreen = (flow: SignInFlowKind, provider: string): OAuthScreenState =>
  provider.startsWith("privy:")
    ? { flow, screen: "cross-app", provider }
    : { flow, screen: "oauth", provider };

/** Creates the OAuth flows over one modal core. */
export function createOAuthFlow(
  core: ModalCore,
  client: Client,
  account: AccountFlow,
  refuse: (error: unknown) => boolean,
): OAuthFlow {
  const onStatusScreen = (provider: string) => {
    const current = core.current();
    return (
      core.getState().open &&
      (current?.screen === "oauth" || current?.screen === "cross-app") &&
      current.provider === provider
    );
  };
  /** Follows an OAuth flow the modal started: the next step on success, the right screen on failure. */
  const follow = (provider: string, run: Promise<LoginResult | null>) => {
    run.then(
      (result) => {
        // Null: the page is leaving for the provider (redirect); the return reopens the modal.
        if (result === null) return;
        core.later(OAUTH_STEP_DELAY_MS, () => {
          if (onStatusScreen(provider)) account.oauthSucceeded(result);
        });
      },
      (error: unknown) => {
        if (isOAuthError(error) && error.code === "in_app_browser") {
          core.show({ flow: account.session().flow, screen: "in-app-browser", provider });
          return;
        }
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === "string" && OAUTH_ROUTED.has(code)) {
          if (code === "max_accounts_reached") console.warn("Symbolon: the app's user limit is reached.");
          if (onStatusScreen(provider)) refuse(error);
        }
        // Anything else: the status screen shows the flow's error (state.oauthFlow).
      },
    );
  };
  // Closed while the provider's popup is still open: the person gave up; no login follows.
  core.onClose(() => {
    const closedOn = core.current();
    if ((closedOn?.screen === "oauth" || closedOn?.screen === "cross-app") && !account.session().result)
      cancelOAuth(client);
  });

  const startOAuth = (provider: string) => {
    const session = account.session();
    session.provider = provider;
    core.show(statusScreen(session.flow, provider));
    const options = { provider, ui: "modal" };
    follow(provider, session.flow === "link" ? linkOAuth(client, options) : loginWithOAuth(client, options));
  };

  return {
    startOAuth,
    retryOAuth() {
      const current = core.current();
      if (current?.screen === "oauth" || current?.screen === "cross-app") startOAuth(current.provider);
    },
    openLinkOAuth(provider) {
      if (!isSignedIn(client)) return;
      // Started before the modal opens: the popup must open within the click.
      const running = linkOAuth(client, { provider, ui: "modal" });
      account.open({
        flow: "link",
        first: (session) => {
          session.provider = provider;
          return statusScreen("link", provider);
        },
      });
      follow(provider, running);
    },
    handleOAuthReturn() {
      const running = handleOAuthReturn(client);
      const { status, ui, intent, provider } = client.store.getState().oauthFlow;
      if (status !== "loading" || ui !== "modal" || provider === null) {
        // Not the modal's flow: headless hooks read the outcome from `state.oauthFlow`.
        running.catch(() => {});
        return;
      }
      const flow = intent === "link" ? "link" : "login";
      account.open({
        flow,
        first: (session) => {
          session.provider = provider;
          return statusScreen(flow, provider);
        },
      });
      follow(
        provider,
        running.then((outcome) => (outcome.type === "completed" ? outcome.result : null)),
      );
    },
  };
}

export const OAUTH_FLOW = defineFlow({
  create: ({ core, client, use }) =>
    createOAuthFlow(core, client, use(ACCOUNT_FLOW), use(REFUSAL_FLOW).refuse),
  exposes: ["openLinkOAuth", "handleOAuthReturn"],
  screens: loginModalScreens<OAuthScreenState>(() => import("./oauthScreens")),
});
