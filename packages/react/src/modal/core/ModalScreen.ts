import type { TermsScreenState } from "../flows/createAccountFlow";
import type { CodeScreenState } from "../flows/createCodeFlow";
import type { ConfirmScreenState } from "../flows/createConfirmFlow";
import type { ExportScreenState } from "../flows/createExportFlow";
import type { FarcasterScreenState } from "../flows/createFarcasterFlow";
import type { FarcasterSignerScreenState } from "../flows/createFarcasterSignerFlow";
import type { LoginMethodsScreenState } from "../flows/createLoginMethodsFlow";
import type { OAuthScreenState } from "../flows/createOAuthFlow";
import type { PasskeysScreenState } from "../flows/createPasskeysFlow";
import type { RefusalScreenState } from "../flows/createRefusalFlow";
import type { TelegramScreenState } from "../flows/createTelegramFlow";
import type { WalletScreenState } from "../flows/createWalletFlow";
import type { MfaScreenState } from "../flows/followMfa";
import type { PasskeyScreenState } from "../flows/passkeyLogin";
import type { SuccessScreenState } from "../flows/showSuccess";

/**
 * The screen on the modal: which flow runs (`flow`), which of its screens shows (`screen`), and only
 * that screen's data. Each flow declares its screens in its own file.
 */
export type ModalScreen =
  | LoginMethodsScreenState
  | CodeScreenState
  | OAuthScreenState
  | TelegramScreenState
  | FarcasterScreenState
  | PasskeyScreenState
  | WalletScreenState
  | RefusalScreenState
  | TermsScreenState
  | SuccessScreenState
  | ConfirmScreenState
  | ExportScreenState
  | FarcasterSignerScreenState
  | MfaScreenState
  | PasskeysScreenState;

/** A screen's name. */
export type ScreenName = ModalScreen["screen"];

/** The flow that runs on the modal. */
export type FlowKind = ModalScreen["flow"];

/** The state of the screen named `name`. */
export type ScreenState<Name extends ScreenName> = Extract<ModalScreen, { screen: Name }>;
