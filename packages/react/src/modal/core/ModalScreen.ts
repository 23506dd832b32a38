import type { FLOWS } from "../modalFlows";
import type { OWN_METHODS } from "../ownMethods";
import type { ScreenEntry } from "../screenEntry";
import type { ScreenStateOf } from "./defineFlow";

/** The states of the screens a login method lists with it in `OWN_METHODS`. */
type MethodScreenStateOf<Method> = Method extends { screens: infer Screens }
  ? {
      [Name in keyof Screens]: Screens[Name] extends ScreenEntry<infer State, never> ? State : never;
    }[keyof Screens]
  : never;

/**
 * The screen on the modal: which flow runs (`flow`), which of its screens shows (`screen`), and only
 * that screen's data. Made of the screens each flow of `FLOWS` and each login method of `OWN_METHODS`
 * declares (type imports: nothing of theirs comes with it).
 */
export type ModalScreen =
  | ScreenStateOf<(typeof FLOWS)[keyof typeof FLOWS]>
  | MethodScreenStateOf<(typeof OWN_METHODS)[keyof typeof OWN_METHODS]>;

/** A screen's name. */
export type ScreenName = ModalScreen["screen"];

/** The flow that runs on the modal. */
export type FlowKind = ModalScreen["flow"];

/** The state of the screen named `name`. */
export type ScreenState<Name extends ScreenName> = Extract<ModalScreen, { screen: Name }>;
