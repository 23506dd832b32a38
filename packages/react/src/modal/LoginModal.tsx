import { MOBILE_BREAKPOINT_PX, MODAL_HEIGHT_COMPACT_PX } from "@symbolon/core";
import { useContext, useInsertionEffect } from "react";
import { useClientState } from "../hooks/useClientState";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import { CodeScreen } from "./CodeScreen";
import { EmailScreen } from "./EmailScreen";
import { injectStyles } from "./injectStyles";
import { ModalFrame } from "./ModalFrame";
import { SuccessScreen } from "./SuccessScreen";
import { useMediaQuery } from "./useMediaQuery";

/** The login modal; loaded lazily by the provider on the first `login()`. */
export default function LoginModal() {
  const context = useContext(PrivyContext);
  const controller = context?.controller ?? null;
  const state = useModalState(controller);
  const appConfig = useClientState("LoginModal", (s) => s.appConfig, null);
  const sheet = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);
  const prefersDark = useMediaQuery("(prefers-color-scheme: dark)");
  useInsertionEffect(() => injectStyles(), []);

  const client = context?.client;
  if (!client || !controller || !state.open) return null;
  const appearance = context.config.appearance ?? {};
  const preference = appearance.theme ?? "light";
  const theme = preference === "system" ? (prefersDark ? "dark" : "light") : preference;
  const appName = appConfig?.name ?? "this app";
  const logo = appearance.logo ?? appConfig?.logo_url ?? undefined;

  return (
    <ModalFrame
      layout={sheet ? "sheet" : "dialog"}
      theme={theme}
      accentColor={appearance.accentColor}
      height={MODAL_HEIGHT_COMPACT_PX}
      onClose={controller.close}
    >
      {state.screen === "email" && (
        <EmailScreen
          client={client}
          controller={controller}
          logo={logo}
          appName={appName}
          disablePlusEmails={appConfig?.disable_plus_emails ?? false}
        />
      )}
      {state.screen === "code" && state.email && (
        <CodeScreen client={client} controller={controller} email={state.email} appName={appName} />
      )}
      {state.screen === "success" && <SuccessScreen />}
    </ModalFrame>
  );
}
