import { lazy } from "react";
import { backOf, type LoginScreenContext } from "../screenContext";
import type { FlowScreens } from "../screenEntry";
import type { TelegramScreenState } from "./createTelegramFlow";

const TelegramScreen = lazy(() => import("../TelegramScreen"));

/** Telegram's screens: the login method's own, listed with it (`OWN_METHODS`). */
export const TELEGRAM_SCREENS: FlowScreens<TelegramScreenState, LoginScreenContext> = {
  telegram: {
    render: (screen, context) => (
      <TelegramScreen
        actions={context.actions.telegram}
        titleId={context.titleId}
        error={screen.error}
        onBack={backOf(screen.flow, context)}
      />
    ),
  },
};
