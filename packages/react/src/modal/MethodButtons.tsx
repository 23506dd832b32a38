import { type ReactNode, useContext } from "react";
import type { ModalController } from "../provider/createModalController";
import { PrivyContext } from "../provider/PrivyContext";
import type { LoginMethod } from "./loginMethods";
import { startTelegramLogin } from "./startTelegramLogin";

/** The button of a method that is not shown inline. */
const METHOD_LABELS: Record<LoginMethod, string> = {
  email: "Continue with email",
  sms: "Continue with SMS",
  telegram: "Telegram",
  farcaster: "Farcaster",
};

/** One button per login method ("Continue with SMS"), then `children` (e.g. "More options"). */
export function MethodButtons({
  controller,
  methods,
  children,
}: {
  controller: ModalController;
  methods: readonly LoginMethod[];
  children?: ReactNode;
}) {
  const client = useContext(PrivyContext)?.client ?? null;
  const choose = (method: LoginMethod) => {
    // Telegram's popup must open in the click itself (browsers block popups opened later).
    if (method === "telegram" && client) startTelegramLogin(client, controller);
    else controller.chooseMethod(method);
  };
  return (
    <div className="symbolon-methods">
      {methods.map((method) => (
        <button key={method} type="button" className="symbolon-secondary" onClick={() => choose(method)}>
          {METHOD_LABELS[method]}
        </button>
      ))}
      {children}
    </div>
  );
}
