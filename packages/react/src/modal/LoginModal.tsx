import { MODAL_HEIGHT_COMPACT_PX, MODAL_HEIGHT_FULL_PX, type User } from "@symbolon/core";
import { Suspense, useContext, useId, useRef } from "react";
import { useClientState } from "../hooks/useClientState";
import type { AccountKind, ModalScreen, ModalState } from "../provider/createModalController";
import { PrivyContext } from "../provider/PrivyContext";
import { useModalState } from "../provider/useModalState";
import { CodeScreen } from "./CodeScreen";
import { EmailScreen } from "./EmailScreen";
import { Logo } from "./Logo";
import {
  CrossAppStatusScreen,
  FarcasterScreen,
  FarcasterSignerScreen,
  InAppBrowserScreen,
  MfaEnrollScreen,
  MfaVerifyScreen,
  OAuthStatusScreen,
  PasskeyScreen,
  PasskeysScreen,
  PhoneScreen,
  RefusalScreen,
  TelegramScreen,
  TermsScreen,
  TransferScreen,
  WalletConnectScreen,
  WalletListScreen,
  WalletSignScreen,
} from "./lazyScreens";
import { loginMethods } from "./loginMethods";
import { MethodsScreen } from "./MethodsScreen";
import { ModalFrame } from "./ModalFrame";
import { MoreScreen } from "./MoreScreen";
import { useFocusAfterVerification } from "./mfa/useFocusAfterVerification";
import { providerName } from "./oauthProviders";
import { SuccessScreen } from "./SuccessScreen";
import { useModalLook } from "./useModalLook";

/** Titles and lines of the link and update screens (spec §2 for the update ones, word for word). */
export const ACCOUNT_TEXTS = {
  link: {
    email: {
      title: "Add your email",
      subtitle: "Enter the email address to add. We'll send you a confirmation code",
    },
    phone: {
      title: "Add your phone number",
      subtitle: "Enter the phone number to add. We'll send you a confirmation code",
    },
  },
  update: {
    email: {
      title: "Update your email",
      subtitle: "Add the email address you'd like to use going forward. We'll send you a confirmation code",
    },
    phone: {
      title: "Update your phone number",
      subtitle: "Add the phone number you'd like to use going forward. We'll send you a confirmation code",
    },
  },
} as const;

/** Spec §5: an update needs an account of that kind already. */
const UPDATE_NEEDS: Record<AccountKind, string> = {
  email: "User is required to have an email address to update it.",
  phone: "User is required to have an phone number to update it.",
};

/** The user's current email address or phone number, if any. */
function currentAccount(user: User | null, kind: AccountKind): string | null {
  for (const account of user?.linked_accounts ?? []) {
    const fields = account as unknown as Record<string, unknown>;
    if (kind === "email" && account.type === "email" && typeof fields.address === "string")
      return fields.address;
    if (kind === "phone" && account.type === "phone") {
      const number = fields.phoneNumber ?? fields.phone_number ?? fields.number;
      if (typeof number === "string") return number;
    }
  }
  return null;
}

const SUCCESS_TITLES: Record<"login" | "link" | "update", Record<AccountKind, string>> = {
  login: { email: "You're logged in", phone: "You're logged in" },
  link: { email: "Email added", phone: "Phone number added" },
  update: { email: "Email updated", phone: "Phone number updated" },
};

/** The success screen's title: what was done, to which kind of account. */
function successTitle(state: ModalState, flow: "login" | "link" | "update", kind: AccountKind): string {
  if (state.flow === "signer") return "Farcaster signer approved";
  if (state.flow === "passkeys") return "Passkeys updated";
  if (state.walletAddress) {
    if (state.flow === "connect" || state.flow === "connect-or-create") return "Wallet connected";
    if (flow === "link") return "Wallet added";
  }
  const moved = state.refusal?.transfer?.accountType;
  if (flow === "link" && (state.entry === "farcaster" || moved === "farcaster"))
    return "Farcaster account added";
  if (flow === "link" && moved === "telegram") return "Telegram account added";
  return SUCCESS_TITLES[flow][kind];
}

/** The login, link and update modal; loaded lazily by the provider on the first `login()`. */
export default function LoginModal() {
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
  const seen = useRef<{ key: string; screen: ModalScreen | null; from: ModalScreen | null }>({
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
  useFocusAfterVerification(state.verifying === true);

  const client = context?.client;
  if (!client || !controller || !state.open) return null;
  const flow = state.flow === "link" || state.flow === "update" ? state.flow : "login";
  const appearance = context.config.appearance ?? {};
  const appName = appConfig?.name ?? "this app";
  const logo = appearance.logo ?? appConfig?.logo_url ?? undefined;
  const methods = loginMethods(appConfig);
  const kind: AccountKind =
    state.kind ?? (state.screen === "phone" || state.channel === "sms" ? "phone" : "email");
  const texts = flow === "login" ? null : ACCOUNT_TEXTS[flow][kind];
  const current = flow === "update" ? currentAccount(user, kind) : null;
  const blocked = flow === "update" && current === null ? UPDATE_NEEDS[kind] : null;
  const back = flow === "login" ? controller.back : undefined;
  const subject = state.channel === "sms" ? (state.phoneNumber ?? null) : state.email;
  // Compact (480 px) for the email-only screens, as before; full (620 px) where more is shown.
  const emailOnly = methods.primary.join() === "email" && methods.overflow.length === 0;
  const compact =
    (state.screen === "methods" && emailOnly) ||
    ["email", "code", "success", "refusal", "oauth", "in-app-browser"].includes(state.screen);
  const provider = state.provider ? providerName(state.provider, appConfig) : "";
  // Link, update and connect dialogs are named by their screen's title; login keeps "Log in or sign up".
  const labelledBy = state.flow === "login" || state.flow === "connect-or-create" ? undefined : titleId;
  // An app whose only method is a wallet: its login screen is the wallet list.
  const walletsOnly = methods.primary.join() === "wallet" && methods.overflow.length === 0;
  // Connect-only flows: a wallet connects without signing in.
  // MFA verification: alone (flow `mfa`), or over the screen of the flow that needs it (kept mounted).
  const verifying = state.verifying === true;
  const underneath = state.flow !== "mfa";
  const walletPurpose =
    state.flow === "connect" || state.flow === "connect-or-create"
      ? "connect"
      : flow === "link"
        ? "link"
        : "login";

  return (
    <ModalFrame
      {...look}
      height={compact && !verifying ? MODAL_HEIGHT_COMPACT_PX : MODAL_HEIGHT_FULL_PX}
      labelledBy={verifying ? verifyTitleId : labelledBy}
      onClose={controller.close}
    >
      {state.screen !== "success" && <Logo logo={logo} appName={appConfig?.name ?? undefined} />}
      {verifying && (
        <Suspense fallback={null}>
          <MfaVerifyScreen client={client} titleId={verifyTitleId} onClose={controller.close} />
        </Suspense>
      )}
      {underneath && (
        <div className="symbolon-layer" hidden={verifying}>
          <Suspense fallback={null}>
            {state.screen === "methods" && !walletsOnly && (
              <MethodsScreen
                client={client}
                controller={controller}
                methods={methods}
                appName={appName}
                disablePlusEmails={appConfig?.disable_plus_emails ?? false}
                initialEmail={state.email ?? ""}
                initialNumber={state.phoneNumber ?? ""}
                header={appearance.landingHeader}
                message={appearance.loginMessage}
                focusTitle={cameBack}
              />
            )}
            {state.screen === "more" && <MoreScreen controller={controller} methods={methods.overflow} />}
            {state.screen === "email" && (
              <EmailScreen
                client={client}
                controller={controller}
                titleId={titleId}
                title={texts?.title ?? "Log in with email"}
                subtitle={texts?.subtitle ?? `Enter your email to continue to ${appName}.`}
                disablePlusEmails={appConfig?.disable_plus_emails ?? false}
                initialEmail={state.email ?? ""}
                placeholder={current ?? undefined}
                current={current ?? undefined}
                blocked={blocked}
                onBack={back}
              />
            )}
            {state.screen === "phone" && (
              <PhoneScreen
                client={client}
                controller={controller}
                titleId={titleId}
                title={texts?.title ?? "Log in with SMS"}
                subtitle={texts?.subtitle ?? `Enter your phone number to continue to ${appName}.`}
                submitLabel={flow === "update" ? "Update" : "Submit"}
                initialNumber={state.phoneNumber ?? ""}
                blocked={blocked}
                onBack={back}
              />
            )}
            {state.screen === "code" && subject && (
              <CodeScreen
                // A new address is a new code screen (no state carried over from the previous one).
                key={subject}
                client={client}
                controller={controller}
                flow={flow}
                channel={state.channel ?? "email"}
                to={subject}
                appName={appName}
                titleId={titleId}
                resendWaitUntil={state.resendWait?.to === subject ? state.resendWait.until : null}
              />
            )}
            {state.screen === "refusal" &&
              state.refusal &&
              state.refusal.code !== "account_transfer_required" && (
                <RefusalScreen
                  controller={controller}
                  code={state.refusal.code}
                  flow={flow}
                  appName={appName}
                  subject={subject}
                  titleId={titleId}
                />
              )}
            {state.screen === "transfer" && state.refusal?.transfer && (
              <TransferScreen
                client={client}
                controller={controller}
                offer={state.refusal.transfer}
                appName={appName}
                titleId={titleId}
              />
            )}
            {state.screen === "terms" && (
              <TermsScreen
                client={client}
                controller={controller}
                appName={appName}
                termsUrl={appConfig?.terms_and_conditions_url ?? null}
                privacyUrl={appConfig?.privacy_policy_url ?? null}
                titleId={titleId}
              />
            )}
            {state.screen === "oauth" && state.provider?.startsWith("privy:") && (
              <CrossAppStatusScreen
                client={client}
                provider={state.provider}
                status={oauthFlow && oauthFlow.provider === state.provider ? oauthFlow.status : "loading"}
                onRetry={controller.retryOAuth}
                titleId={titleId}
              />
            )}
            {state.screen === "oauth" && !state.provider?.startsWith("privy:") && (
              <OAuthStatusScreen
                provider={provider}
                // Until the flow's state catches up with the click, it is loading.
                status={oauthFlow && oauthFlow.provider === state.provider ? oauthFlow.status : "loading"}
                error={oauthFlow?.error ?? null}
                onRetry={controller.retryOAuth}
                onBack={back}
                titleId={titleId}
              />
            )}
            {state.screen === "in-app-browser" && (
              <InAppBrowserScreen
                provider={provider}
                onBack={flow === "login" ? controller.back : controller.close}
                titleId={titleId}
              />
            )}
            {state.screen === "telegram" && (
              <TelegramScreen
                client={client}
                controller={controller}
                titleId={titleId}
                error={state.methodError ?? null}
                onBack={back}
              />
            )}
            {state.screen === "farcaster" && (
              <FarcasterScreen
                client={client}
                controller={controller}
                flow={flow === "link" ? "link" : "login"}
                titleId={titleId}
                onBack={back}
              />
            )}
            {state.screen === "farcaster-signer" && state.signerPublicKey && (
              <FarcasterSignerScreen
                client={client}
                controller={controller}
                publicKey={state.signerPublicKey}
                titleId={titleId}
              />
            )}
            {(state.screen === "wallets" || (state.screen === "methods" && walletsOnly)) && (
              <WalletListScreen
                client={client}
                controller={controller}
                purpose={walletPurpose}
                appName={appName}
                titleId={titleId}
                onBack={
                  (state.flow === "login" || state.flow === "connect-or-create") && !walletsOnly
                    ? controller.back
                    : undefined
                }
              />
            )}
            {state.screen === "wallet-connect" && state.walletId && (
              <WalletConnectScreen
                client={client}
                controller={controller}
                walletId={state.walletId}
                pending={state.walletPending ?? false}
                loadError={state.methodError ?? null}
                titleId={titleId}
              />
            )}
            {state.screen === "wallet-sign" && state.walletAddress && (
              <WalletSignScreen
                client={client}
                controller={controller}
                purpose={flow === "link" ? "link" : "login"}
                walletId={state.walletId ?? null}
                address={state.walletAddress}
                pending={state.walletPending ?? false}
                loadError={state.methodError ?? null}
                titleId={titleId}
              />
            )}
            {state.screen === "passkey" && (
              <PasskeyScreen client={client} controller={controller} titleId={titleId} onBack={back} />
            )}
            {state.screen === "passkeys" && (
              <PasskeysScreen client={client} controller={controller} titleId={titleId} />
            )}
            {state.screen === "mfa-enroll" && (
              <MfaEnrollScreen client={client} controller={controller} appName={appName} titleId={titleId} />
            )}
            {state.screen === "success" && <SuccessScreen title={successTitle(state, flow, kind)} />}
          </Suspense>
        </div>
      )}
    </ModalFrame>
  );
}
