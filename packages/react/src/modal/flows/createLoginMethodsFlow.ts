import type { Client } from "@symbolon/core";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import { ACCOUNT_FLOW, type AccountFlow } from "./createAccountFlow";
import { CODE_FLOW, type CodeFlow } from "./createCodeFlow";
import type { SignInFlowKind } from "./signInTypes";

/**
 * The login screen (the app's methods; its inline form starts from the address or number typed
 * before), and `more`, the overflow methods.
 */
export type LoginMethodsScreenState =
  | { flow: SignInFlowKind; screen: "methods"; email: string | null; phoneNumber: string | null }
  | { flow: SignInFlowKind; screen: "more" };

/** The login flow: the login screen, where each method leads on (`createLoginMethodsActions`). */
export interface LoginMethodsFlow {
  /** Open the login flow; ignored with a warning when already signed in (spec §5). */
  login(): void;
}

/** Creates the login flow; a code sent shortly before a close brings its code screen back. */
export function createLoginMethodsFlow(
  client: Client,
  account: AccountFlow,
  code: CodeFlow,
): LoginMethodsFlow {
  return {
    login() {
      const { ready, authenticated, user } = client.store.getState();
      if (!ready) {
        console.warn("login() was called before the provider was ready; ignored.");
        return;
      }
      if (authenticated && !user?.is_guest) {
        console.warn("login() was called while the user is already logged in; ignored.");
        return;
      }
      account.open({
        flow: "login",
        first: (session) =>
          code.resume(session) ?? { flow: "login", screen: "methods", email: null, phoneNumber: null },
      });
    },
  };
}

export const LOGIN_METHODS_FLOW = defineFlow({
  create: ({ client, use }) => createLoginMethodsFlow(client, use(ACCOUNT_FLOW), use(CODE_FLOW)),
  exposes: ["login"],
  screens: loginModalScreens<LoginMethodsScreenState>(() => import("./loginMethodsScreens")),
});
