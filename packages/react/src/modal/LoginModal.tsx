import { MODAL_HEIGHT_COMPACT_PX, MODAL_HEIGHT_FULL_PX } from "@symbolon/core";
import { Fragment, Suspense, useContext, useId, useRef } from "react";
import { useClientState } from "../hooks/useClientState";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import type { ScreenName } from "./core/ModalScreen";
import { Logo } from "./Logo";
import { MfaVerifyScreen } from "./lazyScreens";
import { loginMethods } from "./loginMethods";
import { ModalFrame } from "./ModalFrame";
import { useFocusAfterVerification } from "./mfa/useFocusAfterVerification";
import { METHOD_SCREENS } from "./ownMethods";
import { screenActionsOf } from "./screenActions";
import type { LoginScreenContext } from "./screenContext";
import { entryOf, type ScreenRegistry } from "./screenEntry";
import { useModalLook } from "./useModalLook";

/**
 * The login, link and update modal; loaded lazily by the provider on the first `login()`, with the
 * screens of its flows (`loadLoginScreens`). The login methods' own screens come with it.
 */
export default function LoginModal({ screens }: { screens: ScreenRegistry<LoginScreenContext> }) {
  const context = useContext(PrivyContext);
  const controller = context?.controller ?? null;
  const state = useModalState(controller);
  const appConfig = useClientState("LoginModal", (s) => s.appConfig, null);
  const user = useClientState("LoginModal", (s) => s.user, null);
  const oauthFlow = useClientState("LoginModal", (s) => s.oauthFlow, null);
  const look = useModalLook(context?.config);
  const titleId = useId();
  const verifyTitleId = useId();
  // The screen shown before this one (in this opening): coming back to the login screen from
  // another one moves focus to its title.
  const seen = useRef<{ key: string; screen: ScreenName | null; from: ScreenName | null }>({
    key: "",
    screen: null,
    from: null,
  });
  const key = `${state.open}:${state.flow}`;
  if (seen.current.key !== key || seen.current.screen !== state.screen) {
    const from = seen.current.key === key ? seen.current.screen : null;
    seen.current = { key, screen: state.screen, from };
  }
  // Back from another screen: the title takes focus, except after "Change email" / "Change number",
  // where the person came to edit the field (it takes focus itself).
  const cameBack = state.screen === "methods" && seen.current.from !== null && seen.current.from !== "code";
  useFocusAfterVerification(state.verifying);

  const client = context?.client;
  if (!client || !controller || !state.open || state.screen === null) return null;
  const appearance = context.config.appearance ?? {};
  const screenContext: LoginScreenContext = {
    client,
    flows: controller.flows,
    actions: screenActionsOf(controller, client),
    close: controller.close,
    titleId,
    appName: appConfig?.name ?? "this app",
    appConfig,
    user,
    oauthFlow,
    appearance,
    methods: loginMethods(appConfig),
    cameBack,
  };
  // MFA verification: alone (the `mfa` flow, no screen under it), or over the screen of the flow that
  // needs it (kept mounted).
  const { verifying } = state;
  const entry = entryOf(screens, state) ?? entryOf(METHOD_SCREENS, state);
  const screen = entry ? state : null;
  const compact = entry?.compact?.(screenContext) ?? false;
  // Link, update and connect dialogs are named by their screen's title; login keeps "Log in or sign up".
  const labelledBy = state.flow === "login" || state.flow === "connect-or-create" ? undefined : titleId;

  return (
    <ModalFrame
      {...look}
      height={compact && !verifying ? MODAL_HEIGHT_COMPACT_PX : MODAL_HEIGHT_FULL_PX}
      labelledBy={verifying ? verifyTitleId : labelledBy}
      onClose={controller.close}
    >
      {!entry?.bare && (
        <Logo
          logo={appearance.logo ?? appConfig?.logo_url ?? undefined}
          appName={appConfig?.name ?? undefined}
        />
      )}
      {verifying && (
        <Suspense fallback={null}>
          <MfaVerifyScreen client={client} titleId={verifyTitleId} onClose={controller.close} />
        </Suspense>
      )}
      {screen && entry && (
        <div className="symbolon-layer" hidden={verifying}>
          <Suspense fallback={null}>
            {/* Keyed by screen: moving to another screen mounts it afresh, as each did in its own place. */}
            <Fragment key={screen.screen}>{entry.render(screen, screenContext)}</Fragment>
          </Suspense>
        </div>
      )}
    </ModalFrame>
  );
}
