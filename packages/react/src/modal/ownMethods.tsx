import type { LISTED_LOGIN_METHODS } from "@symbolon/core";
import type { ComponentType } from "react";
import type { LoginMethodsActions } from "./flows/createLoginMethodsActions";
import { PASSKEY_LOGIN_SCREENS } from "./flows/passkeyLoginScreens";
import { TELEGRAM_SCREENS } from "./flows/telegramScreens";
import { PasskeyGlyph, WalletGlyph } from "./methodGlyphs";
import type { LoginScreenContext } from "./screenContext";
import type { ScreenEntry, ScreenRegistry } from "./screenEntry";

/** A login method with screens in this modal: its button, what choosing it does, and its own screens. */
export interface OwnMethod {
  /** The button's text. */
  label: string;
  /** A decorative mark beside the text, if the method has one. */
  Glyph?: ComponentType;
  /** What a click does (some must act within the click: Telegram opens its popup there). */
  choose(actions: LoginMethodsActions): void;
  /**
   * The screens only this method shows, by name (`FlowScreens` of its screens' states): they load
   * with the login modal, as this list does. The others' screens belong to a flow of `FLOWS`.
   */
  screens?: Readonly<Record<string, ScreenEntry<never, LoginScreenContext>>>;
}

/**
 * Every login method this modal has screens for, in one list, by the name apps list in
 * `login_methods_and_order` (OAuth providers and other apps run on one engine: `startOAuth`). The
 * names are the protocol's `LISTED_LOGIN_METHODS`, so a method the server lists without screens
 * here (or the reverse) does not compile. A new method is one entry here (with its own screens).
 */
export const OWN_METHODS = {
  email: { label: "Continue with email", choose: (actions) => actions.chooseMethod("email") },
  sms: { label: "Continue with SMS", choose: (actions) => actions.chooseMethod("sms") },
  // Telegram's popup must open in the click itself (browsers block popups opened later).
  telegram: { label: "Telegram", choose: (actions) => actions.startTelegram(), screens: TELEGRAM_SCREENS },
  farcaster: { label: "Farcaster", choose: (actions) => actions.chooseMethod("farcaster") },
  wallet: {
    label: "Continue with a wallet",
    Glyph: WalletGlyph,
    choose: (actions) => actions.chooseMethod("wallet"),
  },
  passkey: {
    label: "Continue with a passkey",
    Glyph: PasskeyGlyph,
    choose: (actions) => actions.chooseMethod("passkey"),
    screens: PASSKEY_LOGIN_SCREENS,
  },
} satisfies Record<(typeof LISTED_LOGIN_METHODS)[number], OwnMethod>;

/** The name of a method in [`OWN_METHODS`]. */
export type OwnMethodName = keyof typeof OWN_METHODS;

/** Whether this modal has screens for `name`. */
export function isOwnMethod(name: string): name is OwnMethodName {
  return Object.hasOwn(OWN_METHODS, name);
}

/** The screens the login methods list with them, for the login modal. */
export const METHOD_SCREENS: ScreenRegistry<LoginScreenContext> = Object.assign(
  {},
  ...Object.values<OwnMethod>(OWN_METHODS).map((method) => method.screens),
);
