import { type Client, loginWithTelegram } from "@symbolon/core";
import type { ModalCore } from "../core/createModalCore";
import type { AccountActions } from "./createAccountActions";
import type { AccountFlow } from "./createAccountFlow";
import type { SignInFlowKind } from "./signInTypes";

/** Telegram's sign-in is under way in its window; `error`: why the last try failed (the screen offers a retry). */
export type TelegramScreenState = { flow: SignInFlowKind; screen: "telegram"; error: string | null };

/** What the Telegram screen calls. */
export interface TelegramActions {
  /**
   * Shows the Telegram screen and runs core's Telegram login (its popup opens now, inside the click).
   * Success goes on like any login (terms, then success); refusals go to their screens; anything else
   * is shown on the Telegram screen with a retry.
   */
  startTelegram(): void;
}

/** Creates the Telegram login step over one modal core (loaded with the screens). */
export function createTelegramFlow(
  core: ModalCore,
  client: Client,
  account: AccountFlow,
  finish: AccountActions,
  refuse: (error: unknown) => boolean,
): TelegramActions {
  const stillHere = () => core.getState().open && core.current()?.screen === "telegram";
  return {
    startTelegram() {
      const { flow } = account.session();
      core.show({ flow, screen: "telegram", error: null });
      loginWithTelegram(client).then(
        (result) => {
          if (stillHere()) finish.succeed(result);
        },
        (error: unknown) => {
          if (!stillHere() || refuse(error)) return;
          core.show({
            flow,
            screen: "telegram",
            error: error instanceof Error ? error.message : String(error),
          });
        },
      );
    },
  };
}
