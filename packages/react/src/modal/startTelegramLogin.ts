import { type Client, loginWithTelegram } from "@symbolon/core";
import type { ModalController } from "../provider/createModalController";

/**
 * The login screen's Telegram button: shows the Telegram screen and runs core's Telegram login (its
 * popup opens now, inside the click). Success goes on like any login (terms, then success);
 * refusals go to their screens; anything else is shown on the Telegram screen with a retry.
 */
export function startTelegramLogin(client: Client, controller: ModalController): void {
  controller.chooseMethod("telegram");
  const stillHere = () => {
    const { open, screen } = controller.getState();
    return open && screen === "telegram";
  };
  loginWithTelegram(client).then(
    (result) => {
      if (stillHere()) controller.succeed(result);
    },
    (error: unknown) => {
      if (!stillHere() || controller.refuse(error)) return;
      controller.methodFailed(error instanceof Error ? error.message : String(error));
    },
  );
}
