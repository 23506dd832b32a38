import type { LISTED_LOGIN_METHODS } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountFlow } from "./createAccountFlow";
import type { CodeActions, SendCodeActions } from "./createCodeActions";
import type { LoginMethodsScreenState } from "./createLoginMethodsFlow";
import type { OAuthActions } from "./createOAuthFlow";
import type { TelegramActions } from "./createTelegramFlow";
import type { WalletScreenActions } from "./createWalletActions";

/** A login method with a screen of its own (Telegram starts from `startTelegram`, OAuth from `startOAuth`). */
export type MethodChoice = Exclude<(typeof LISTED_LOGIN_METHODS)[number], "telegram">;

/** What the login screen and "More options" call. */
export interface LoginMethodsActions extends SendCodeActions {
  /** Show the screen of one method. */
  chooseMethod(method: MethodChoice): void;
  /** Show the overflow methods ("More options"). */
  showMore(): void;
  /** Back to the login screen (from "More options", a method's screen, a refusal). */
  back(): void;
  /** Start the provider's OAuth flow (within the click: the popup opens synchronously). */
  startOAuth(provider: string): void;
  /** Start Telegram's login (within the click: its popup opens synchronously). */
  startTelegram(): void;
}

/** The steps the login screen leads to. */
export interface LoginMethodsDeps {
  code: CodeActions;
  oauth: OAuthActions;
  telegram: TelegramActions;
  wallets: WalletScreenActions;
}

/** Creates the login screen's steps over one modal core. */
export function createLoginMethodsActions(
  core: ModalCore,
  account: AccountFlow,
  { code, oauth, telegram, wallets }: LoginMethodsDeps,
): LoginMethodsActions {
  const flow = () => account.session().flow;
  return {
    chooseMethod(method) {
      if (method === "email" || method === "sms") code.enter(method);
      else if (method === "wallet") wallets.showWallets();
      else core.show({ flow: flow(), screen: method });
    },
    showMore: () => core.show({ flow: flow(), screen: "more" }),
    back() {
      const { email, phoneNumber } = account.session();
      const methods: LoginMethodsScreenState = { flow: flow(), screen: "methods", email, phoneNumber };
      core.show(methods);
    },
    startOAuth: oauth.startOAuth,
    startTelegram: telegram.startTelegram,
    codeSent: code.codeSent,
    refuse: code.refuse,
  };
}
