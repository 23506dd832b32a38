import { loginWithOAuth, type OAuthDisplay, type OAuthFlowStatus } from "@symbolon/core";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { PrivyErrorCodeValue } from "../errors/PrivyErrorCode";
import { toErrorCode } from "../errors/toErrorCode";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { type LoginCompleteParams, type LoginMethod, toLoginComplete } from "./toLoginComplete";
import { useClientState } from "./useClientState";

/** Callbacks of {@link useLoginWithOAuth}. */
export interface UseLoginWithOAuthOptions {
  onComplete?: (params: LoginCompleteParams) => void;
  onError?: (code: PrivyErrorCodeValue) => void;
}

/** Parameters of `initOAuth`. */
export interface InitOAuthParameters {
  /** `google`, `github`, … or an operator's `custom:<name>`. */
  provider: string;
  /** Only existing users may log in. */
  disableSignup?: boolean;
  /** Default `redirect` (the page goes to the provider and comes back); `popup` keeps the page. */
  display?: OAuthDisplay;
}

/** State of the headless OAuth flow (spec §4: initial, loading, done, error). */
export interface LoginWithOAuthState {
  status: OAuthFlowStatus;
  error?: Error;
}

/** Marks the flows this hook starts, so a return after a redirect reaches its callbacks. */
const UI = "headless";

/**
 * Headless OAuth login (spec client `useLoginWithOAuth`): `initOAuth({provider})` sends the user to
 * the provider; the login completes on the return (the provider reads the address on load) and
 * `onComplete` runs then — also after a full-page redirect. No modal.
 */
export function useLoginWithOAuth(options: UseLoginWithOAuthOptions = {}) {
  const { client } = usePrivyContext("useLoginWithOAuth");
  const callbacks = useRef(options);
  callbacks.current = options;
  const status = useClientState("useLoginWithOAuth", (s) => s.oauthFlow.status, "initial");
  const error = useClientState("useLoginWithOAuth", (s) => s.oauthFlow.error, null);

  // Report this hook's logins when they settle, whichever page load started them.
  useEffect(
    () =>
      client?.store.subscribe((state, previous) => {
        const flow = state.oauthFlow;
        if (flow === previous.oauthFlow || flow.ui !== UI || flow.intent !== "login") return;
        if (flow.status === "done" && flow.result) {
          const provider = flow.provider as LoginMethod;
          callbacks.current.onComplete?.(toLoginComplete(flow.result, null, provider));
        } else if (flow.status === "error" && previous.oauthFlow.status !== "error") {
          callbacks.current.onError?.(toErrorCode(flow.error));
        }
      }),
    [client],
  );

  const initOAuth = useCallback(
    async ({ provider, disableSignup, display = "redirect" }: InitOAuthParameters) => {
      const ready = requireClient(client, "useLoginWithOAuth");
      await loginWithOAuth(ready, { provider, display, ui: UI, ...(disableSignup ? { disableSignup } : {}) });
    },
    [client],
  );

  const state = useMemo<LoginWithOAuthState>(() => (error ? { status, error } : { status }), [status, error]);
  return { initOAuth, state, loading: status === "loading" };
}
