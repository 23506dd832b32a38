import type { ReactNode } from "react";
import type { ModalScreen, ScreenName, ScreenState } from "./core/ModalScreen";

/** A screen's state: the flow that runs, the screen it shows (and that screen's data). */
export interface ScreenBase {
  flow: string;
  screen: string;
}

/** How a modal shows one screen: its component with the state and actions of its flow. */
export interface ScreenEntry<State, Context> {
  render(screen: State, context: Context): ReactNode;
  /** Fits the compact height (480 px, the email-only screens); the others get the full 620 px. */
  compact?: (context: Context) => boolean;
  /** Shows without the app's logo above it. */
  bare?: true;
}

/**
 * A flow's screens: an entry for each screen of `State` (the compiler asks for each) but the `Layer`
 * ones, which the modal shows over no screen itself.
 */
export type FlowScreens<State extends ScreenBase, Context, Layer extends State["screen"] = never> = {
  [Name in Exclude<State["screen"], Layer>]: ScreenEntry<Extract<State, { screen: Name }>, Context>;
};

/** Entries of any screens, as a modal gathers them from its flows' modules. */
export type ScreenEntries = Readonly<Record<string, ScreenEntry<never, never>>>;

/** The screens a modal shows: an entry for each, by name. */
export type ScreenRegistry<Context> = {
  readonly [Name in ScreenName]?: ScreenEntry<ScreenState<Name>, Context>;
};

/** The entry of `screen` in `registry`, typed for that screen; undefined when the modal has none. */
export function entryOf<Screen extends ModalScreen, Context>(
  registry: ScreenRegistry<Context>,
  screen: Screen,
): ScreenEntry<Screen, Context> | undefined {
  // TypeScript cannot correlate the screen's name with its entry's state type: one cast, here.
  return registry[screen.screen] as ScreenEntry<Screen, Context> | undefined;
}
