import { MODAL_HEIGHT_COMPACT_PX } from "@symbolon/core";
import { useContext } from "react";
import { useClientState } from "../hooks/useClientState";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import { CodeScreen } from "./CodeScreen";
import { EmailScreen } from "./EmailScreen";
import { Logo } from "./Logo";
import { ModalFrame } from "./ModalFrame";
import { SuccessScreen } from "./SuccessScreen";
import { useModalLook } from "./useModalLook";

/** The login modal; loaded lazily by the provider on the first `login()`. */
export default function LoginModal() {
  const context = useContext(PrivyContext);
  const controller = context?.controller ?? null;
  const state = useModalState(controller);
  const appConfig = useClientState("LoginModal", (s) => s.appConfig, null);
  const look = useModalLook(context?.config);

  const client = context?.client;
  if (!client || !controller || !state.open) return null;
  const appearance = context.config.appearance ?? {};
  const appName = appConfig?.name ?? "this app";
  const logo = appearance.logo ?? appConfig?.logo_url ?? undefined;

  return (
    <ModalFrame {...look} height={MODAL_HEIGHT_COMPACT_PX} onClose={controller.close}>
      {state.screen !== "success" && <Logo logo={logo} appName={appConfig?.name ?? undefined} />}
      {state.screen === "email" && (
        <EmailScreen
          client={client}
          controller={controller}
          appName={appName}
          disablePlusEmails={appConfig?.disable_plus_emails ?? false}
          initialEmail={state.email ?? ""}
          header={appearance.landingHeader}
          message={appearance.loginMessage}
        />
      )}
      {state.screen === "code" && state.email && (
        <CodeScreen
          // A new address is a new code screen (no state carried over from the previous one).
          key={state.email}
          client={client}
          controller={controller}
          email={state.email}
          appName={appName}
          resendWaitUntil={state.resendWait?.email === state.email ? state.resendWait.until : null}
        />
      )}
      {state.screen === "success" && <SuccessScreen />}
    </ModalFrame>
  );
}
