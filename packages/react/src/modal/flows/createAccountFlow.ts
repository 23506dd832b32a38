import {
  type Client,
  type LoginResult,
  logout,
  resetEmailFlow,
  resetOAuthFlow,
  resetPasskeyFlow,
  resetSmsFlow,
} from "@symbolon/core";
import { PrivyErrorCode } from "../../errors/PrivyErrorCode";
import type { ModalCore } from "../core/createModalCore";
import { defineFlow, loginModalScreens } from "../core/defineFlow";
import type { ModalScreen } from "../core/ModalScreen";
import {
  type AccountFlowKind,
  type AccountKind,
  type CodeChannel,
  isAccountFlow,
  type LoginFlowKind,
  type SignInFlowKind,
} from "./signInTypes";

/**
 * What closing a login, link or update reports: success (with the login result; after a link or
 * update, the user as it is now) or the user-exit code of the flow (spec §4, §8).
 */
export type ModalOutcome =
  | { type: "complete"; flow: AccountFlowKind; result: LoginResult; kind?: AccountKind }
  | { type: "error"; flow: AccountFlowKind; code: string; kind?: AccountKind };

/** A link whose success title names what it added. */
export type AddedAccount = "wallet" | "farcaster" | "telegram";

/** Spec §4: a login into an app whose terms the user has not accepted asks for them first. */
export type TermsScreenState = { flow: LoginFlowKind; screen: "terms" };

/** One opening of a sign-in flow: what its screens and its outcome need to know. */
export interface SignInSession {
  flow: SignInFlowKind;
  /** Link and update: the email or the phone. */
  kind: AccountKind | null;
  /** The address and the number codes went to (the entry forms start from them), and the last channel. */
  email: string | null;
  phoneNumber: string | null;
  channel: CodeChannel | null;
  /** The OAuth provider chosen. */
  provider: string | null;
  /** A link of a wallet or a Farcaster account (its success title says so). */
  adding: AddedAccount | null;
  /** Set on success: closing reports it. */
  result: LoginResult | null;
  /** A login waiting for the terms to be accepted. */
  awaitingTerms: LoginResult | null;
}

/** How a sign-in flow opens: its first screen, and for link and update, which account. */
export interface SignInOpening {
  flow: SignInFlowKind;
  kind?: AccountKind | null;
  /** The first screen; `session` is the new opening (a resumed code fills it in). */
  first: (session: SignInSession) => ModalScreen;
  /** Connect-or-create reports through the wallet outcome instead (its result, or null). */
  closed?: (result: LoginResult | null) => void;
}

/** Opens the sign-in flows and reports how each closed; their screens finish them (`createAccountActions`). */
export interface AccountFlow {
  /**
   * Listen for the outcome reported when the modal closes. By default only login outcomes (what
   * `useLogin` wants); pass `"link"`, `"update"` or `"all"` for the others.
   */
  onOutcome(listener: (outcome: ModalOutcome) => void, flow?: AccountFlowKind | "all"): () => void;
  /** Opens a sign-in flow after the open delay; false when the modal is busy. */
  open(opening: SignInOpening): boolean;
  /** The opening on screen (or the last one); its steps fill it in. */
  session(): SignInSession;
  /**
   * A login into an app that requires its terms, not accepted yet: shows the terms screen (spec §4)
   * and returns true.
   */
  waitForTerms(result: LoginResult): boolean;
  /** Spec §4 after OAuth success: the terms if required and not accepted, else close as success. */
  oauthSucceeded(result: LoginResult): void;
}

const EXIT_CODES: Record<AccountFlowKind, string> = {
  login: PrivyErrorCode.USER_EXITED_AUTH_FLOW,
  link: PrivyErrorCode.USER_EXITED_LINK_FLOW,
  update: PrivyErrorCode.USER_EXITED_UPDATE_FLOW,
};

const isLoginFlow = (flow: SignInFlowKind): flow is LoginFlowKind =>
  flow === "login" || flow === "connect-or-create";

/** Spec §5: linking (and updating, and managing passkeys) requires authentication; warns when not. */
export function isSignedIn(client: Client): boolean {
  const { ready, authenticated } = client.store.getState();
  if (ready && authenticated) return true;
  console.warn("User must be authenticated before linking an account.");
  return false;
}

/** Creates what opens the sign-in flows and reports how they closed, over one modal core. */
export function createAccountFlow(core: ModalCore, client: Client): AccountFlow {
  const outcomeListeners = new Map<(outcome: ModalOutcome) => void, AccountFlowKind | "all">();
  let session: SignInSession = newSession("login", null);
  core.onDestroy(() => outcomeListeners.clear());

  const report = (outcome: ModalOutcome) => {
    for (const [listener, flow] of outcomeListeners)
      if (flow === "all" || flow === outcome.flow) listener(outcome);
  };
  const waitForTerms = (result: LoginResult) => {
    const terms = client.store.getState().appConfig?.require_users_accept_terms ?? false;
    const { flow } = session;
    if (!isLoginFlow(flow) || !terms || result.user.has_accepted_terms) return false;
    session.awaitingTerms = result;
    core.show({ flow, screen: "terms" });
    return true;
  };

  return {
    onOutcome(listener, flow = "login") {
      outcomeListeners.set(listener, flow);
      return () => outcomeListeners.delete(listener);
    },
    open({ flow, kind = null, first, closed }) {
      return core.open(() => {
        const opened = newSession(flow, kind);
        session = opened;
        return {
          screen: first(opened),
          closed() {
            const declinedTerms = core.current()?.screen === "terms" && opened.awaitingTerms !== null;
            opened.awaitingTerms = null;
            closed?.(opened.result);
            if (isAccountFlow(flow)) {
              const extra = opened.kind ? { kind: opened.kind } : {};
              report(
                opened.result
                  ? { type: "complete", flow, result: opened.result, ...extra }
                  : { type: "error", flow, code: EXIT_CODES[flow], ...extra },
              );
            }
            // The terms were not accepted: the session the login made does not stay (spec §4).
            if (declinedTerms) void logout(client).catch(() => {});
          },
          ...(isAccountFlow(flow) && {
            cleared() {
              resetEmailFlow(client);
              resetSmsFlow(client);
              resetOAuthFlow(client);
              resetPasskeyFlow(client);
            },
          }),
        };
      });
    },
    session: () => session,
    waitForTerms,
    oauthSucceeded(result) {
      if (waitForTerms(result)) return;
      session.result = result;
      core.close();
    },
  };
}

/** A sign-in opening before any step. */
function newSession(flow: SignInFlowKind, kind: AccountKind | null): SignInSession {
  return {
    flow,
    kind,
    email: null,
    phoneNumber: null,
    channel: null,
    provider: null,
    adding: null,
    result: null,
    awaitingTerms: null,
  };
}

/** The sign-in flows' base: every other sign-in flow opens through it. */
export const ACCOUNT_FLOW = defineFlow({
  create: ({ core, client }) => createAccountFlow(core, client),
  exposes: ["onOutcome"],
  screens: loginModalScreens<TermsScreenState>(() => import("./accountScreens")),
});
