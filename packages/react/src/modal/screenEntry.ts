import type { ReactNode } from "react";
import type { ScreenName, ScreenState } from "./core/ModalScreen";

/** How a screen registry shows one screen: its component with the state and actions of its flow. */
export interface ScreenEntry<Name extends ScreenName, Context> {
  render(screen: ScreenState<Name>, context: Context): ReactNode;
  /** Fits the compact height (480 px, the email-only screens); the others get the full 620 px. */
  compact?: (context: Context) => boolean;
  /** Shows without the app's logo above it. */
  bare?: true;
}

/** Maps each screen named in `Names` to its entry. */
export type ScreenRegistry<Names extends ScreenName, Context> = {
  [Name in Names]: ScreenEntry<Name, Context>;
};

/** The entry of `screen` in `registry`, typed for that screen. */
export function entryOf<Names extends ScreenName, Context>(
  registry: ScreenRegistry<Names, Context>,
  screen: ScreenState<Names>,
): ScreenEntry<Names, Context> {
  // TypeScript cannot correlate the screen's name with its entry's state type: one cast, here.
  return registry[screen.screen as Names] as ScreenEntry<Names, Context>;
}
