import type { AppConfigResponse, Client, OAuthFlowState, User } from "@symbolon/core";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { ACCOUNT_TEXTS, currentAccount, UPDATE_NEEDS } from "./accountTexts";
import type { SignInFlowKind } from "./flows/signInTypes";
import type { LoginMethods } from "./loginMethods";
import type { ModalFlows } from "./modalFlows";
import type { ScreenActions } from "./screenActions";

/** What a modal hands every screen entry (the wallet modal: only this). */
export interface ScreenContext {
  client: Client;
  /** The modal's flows: what a screen of a flow calls on it. */
  flows: ModalFlows;
  /** What the sign-in screens call (built once the modal's code loads). */
  actions: ScreenActions;
  close: () => void;
  titleId: string;
}

/** What the login modal hands every screen entry. */
export interface LoginScreenContext extends ScreenContext {
  appName: string;
  appConfig: AppConfigResponse | null;
  user: User | null;
  oauthFlow: OAuthFlowState | null;
  appearance: NonNullable<PrivyConfig["appearance"]>;
  methods: LoginMethods;
  /** Back on the login screen from another one (not "Change email"): its title takes focus. */
  cameBack: boolean;
}

// What the sign-in flows' screens share.

/** Log in, link and update: which texts and calls a screen uses (connect-or-create logs in). */
export const accountFlowOf = (flow: SignInFlowKind) =>
  flow === "link" || flow === "update" ? flow : "login";

/** Back to the login screen: offered in the login flow only. */
export const backOf = (flow: SignInFlowKind, { actions }: LoginScreenContext) =>
  flow === "login" ? actions.methods.back : undefined;

/** The entry screens' texts: the login's, or the link's or update's (spec §2), and what an update replaces. */
export function entryTexts(flow: SignInFlowKind, kind: "email" | "phone", { user }: LoginScreenContext) {
  const account = accountFlowOf(flow);
  const texts = account === "login" ? null : ACCOUNT_TEXTS[account][kind];
  const current = account === "update" ? currentAccount(user, kind) : null;
  const blocked = account === "update" && current === null ? UPDATE_NEEDS[kind] : null;
  return { texts, current, blocked };
}

/** The OAuth flow's status for `provider`: until the flow's state catches up with the click, loading. */
export const statusOf = (provider: string, { oauthFlow }: LoginScreenContext) =>
  oauthFlow && oauthFlow.provider === provider ? oauthFlow.status : "loading";

/** An app whose only method is a wallet: its login screen is the wallet list. */
export const walletsOnly = ({ methods }: LoginScreenContext) =>
  methods.primary.join() === "wallet" && methods.overflow.length === 0;

/** Compact whatever the app shows. */
export const always = () => true;
