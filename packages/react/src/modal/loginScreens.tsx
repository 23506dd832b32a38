import type { AppConfigResponse, Client, OAuthFlowState, User } from "@symbolon/core";
import type { PrivyConfig } from "../provider/PrivyConfig";
import { ACCOUNT_TEXTS, currentAccount, UPDATE_NEEDS } from "./accountTexts";
import { CodeScreen } from "./CodeScreen";
import type { ModalScreen, ScreenName, ScreenState } from "./core/ModalScreen";
import { EmailScreen } from "./EmailScreen";
import type { SignInFlowKind } from "./flows/signInTypes";
import {
  CrossAppStatusScreen,
  FarcasterScreen,
  FarcasterSignerScreen,
  InAppBrowserScreen,
  MfaEnrollScreen,
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
import type { LoginMethods } from "./loginMethods";
import { MethodsScreen } from "./MethodsScreen";
import { MoreScreen } from "./MoreScreen";
import { providerName } from "./oauthProviders";
import { SuccessScreen } from "./SuccessScreen";
import type { ScreenActions } from "./screenActions";
import type { ScreenRegistry } from "./screenEntry";

/** What the login modal hands every screen entry. */
export interface LoginScreenContext {
  client: Client;
  actions: ScreenActions;
  close: () => void;
  titleId: string;
  appName: string;
  appConfig: AppConfigResponse | null;
  user: User | null;
  oauthFlow: OAuthFlowState | null;
  appearance: NonNullable<PrivyConfig["appearance"]>;
  methods: LoginMethods;
  /** Back on the login screen from another one (not "Change email"): its title takes focus. */
  cameBack: boolean;
}

/**
 * The screens the login modal shows: not the wallet modal's (its own chunk), nor the MFA verification
 * alone (a layer over no screen).
 */
export type LoginScreenName = Exclude<ScreenName, "confirm" | "export" | "mfa-verify">;

/** Log in, link and update: which texts and calls a screen uses (connect-or-create logs in). */
const accountFlowOf = (flow: SignInFlowKind) => (flow === "link" || flow === "update" ? flow : "login");

/** Back to the login screen: offered in the login flow only. */
const backOf = (flow: SignInFlowKind, { actions }: LoginScreenContext) =>
  flow === "login" ? actions.methods.back : undefined;

/** The entry screens' texts: the login's, or the link's or update's (spec §2), and what an update replaces. */
function entryTexts(flow: SignInFlowKind, kind: "email" | "phone", { user }: LoginScreenContext) {
  const account = accountFlowOf(flow);
  const texts = account === "login" ? null : ACCOUNT_TEXTS[account][kind];
  const current = account === "update" ? currentAccount(user, kind) : null;
  const blocked = account === "update" && current === null ? UPDATE_NEEDS[kind] : null;
  return { texts, current, blocked };
}

/** The OAuth flow's status for `provider`: until the flow's state catches up with the click, loading. */
const statusOf = (provider: string, { oauthFlow }: LoginScreenContext) =>
  oauthFlow && oauthFlow.provider === provider ? oauthFlow.status : "loading";

/** An app whose only method is a wallet: its login screen is the wallet list. */
const walletsOnly = ({ methods }: LoginScreenContext) =>
  methods.primary.join() === "wallet" && methods.overflow.length === 0;

const always = () => true;

/** Each screen of the login modal, and the component that shows it (lazy unless the login screen needs it at once). */
export const LOGIN_SCREENS: ScreenRegistry<LoginScreenName, LoginScreenContext> = {
  methods: {
    render: (screen, context) =>
      walletsOnly(context) ? (
        <WalletListScreen
          client={context.client}
          actions={context.actions.wallets}
          purpose={
            screen.flow === "connect-or-create"
              ? "connect"
              : accountFlowOf(screen.flow) === "link"
                ? "link"
                : "login"
          }
          appName={context.appName}
          titleId={context.titleId}
        />
      ) : (
        <MethodsScreen
          client={context.client}
          actions={context.actions.methods}
          methods={context.methods}
          appName={context.appName}
          disablePlusEmails={context.appConfig?.disable_plus_emails ?? false}
          initialEmail={screen.email ?? ""}
          initialNumber={screen.phoneNumber ?? ""}
          header={context.appearance.landingHeader}
          message={context.appearance.loginMessage}
          focusTitle={context.cameBack}
        />
      ),
    // Compact for the email-only login screen, as before; full where more is shown.
    compact: ({ methods }) => methods.primary.join() === "email" && methods.overflow.length === 0,
  },
  more: {
    render: (_screen, { actions, methods }) => (
      <MoreScreen actions={actions.methods} methods={methods.overflow} />
    ),
  },
  email: {
    render(screen, context) {
      const { texts, current, blocked } = entryTexts(screen.flow, "email", context);
      return (
        <EmailScreen
          client={context.client}
          actions={context.actions.code}
          titleId={context.titleId}
          title={texts?.title ?? "Log in with email"}
          subtitle={texts?.subtitle ?? `Enter your email to continue to ${context.appName}.`}
          disablePlusEmails={context.appConfig?.disable_plus_emails ?? false}
          initialEmail={screen.email ?? ""}
          placeholder={current ?? undefined}
          current={current ?? undefined}
          blocked={blocked}
          onBack={backOf(screen.flow, context)}
        />
      );
    },
    compact: always,
  },
  phone: {
    render(screen, context) {
      const { texts, blocked } = entryTexts(screen.flow, "phone", context);
      return (
        <PhoneScreen
          client={context.client}
          actions={context.actions.code}
          titleId={context.titleId}
          title={texts?.title ?? "Log in with SMS"}
          subtitle={texts?.subtitle ?? `Enter your phone number to continue to ${context.appName}.`}
          submitLabel={accountFlowOf(screen.flow) === "update" ? "Update" : "Submit"}
          initialNumber={screen.phoneNumber ?? ""}
          blocked={blocked}
          onBack={backOf(screen.flow, context)}
        />
      );
    },
  },
  code: {
    render(screen, context) {
      const to = screen.channel === "email" ? screen.email : screen.phoneNumber;
      return (
        <CodeScreen
          // A new address is a new code screen (no state carried over from the previous one).
          key={to}
          client={context.client}
          actions={context.actions.code}
          flow={accountFlowOf(screen.flow)}
          channel={screen.channel}
          to={to}
          appName={context.appName}
          titleId={context.titleId}
          resendWaitUntil={screen.resendWaitUntil}
        />
      );
    },
    compact: always,
  },
  refusal: {
    render: (screen, context) =>
      screen.refusal.code !== "account_transfer_required" && (
        <RefusalScreen
          code={screen.refusal.code}
          flow={accountFlowOf(screen.flow)}
          appName={context.appName}
          subject={screen.subject}
          titleId={context.titleId}
          onBack={context.actions.methods.back}
          onClose={context.close}
        />
      ),
    compact: always,
  },
  transfer: {
    render: (screen, context) => (
      <TransferScreen
        client={context.client}
        actions={context.actions.transfer}
        offer={screen.refusal.transfer}
        appName={context.appName}
        titleId={context.titleId}
        onCancel={context.close}
      />
    ),
  },
  terms: {
    render: (_screen, context) => (
      <TermsScreen
        client={context.client}
        actions={context.actions.account}
        appName={context.appName}
        termsUrl={context.appConfig?.terms_and_conditions_url ?? null}
        privacyUrl={context.appConfig?.privacy_policy_url ?? null}
        titleId={context.titleId}
        onDecline={context.close}
      />
    ),
  },
  "cross-app": {
    render: (screen, context) => (
      <CrossAppStatusScreen
        client={context.client}
        provider={screen.provider}
        status={statusOf(screen.provider, context)}
        onRetry={context.actions.oauth.retryOAuth}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
  oauth: {
    render: (screen, context) => (
      <OAuthStatusScreen
        provider={providerName(screen.provider, context.appConfig)}
        status={statusOf(screen.provider, context)}
        error={context.oauthFlow?.error ?? null}
        onRetry={context.actions.oauth.retryOAuth}
        onBack={backOf(screen.flow, context)}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
  "in-app-browser": {
    render: (screen, context) => (
      <InAppBrowserScreen
        provider={providerName(screen.provider, context.appConfig)}
        onBack={backOf(screen.flow, context) ?? context.close}
        titleId={context.titleId}
      />
    ),
    compact: always,
  },
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
  farcaster: {
    render: (screen, context) => (
      <FarcasterScreen
        client={context.client}
        actions={context.actions.farcaster}
        flow={accountFlowOf(screen.flow) === "link" ? "link" : "login"}
        titleId={context.titleId}
        onBack={backOf(screen.flow, context)}
      />
    ),
  },
  "farcaster-signer": {
    render: (screen, context) => (
      <FarcasterSignerScreen
        client={context.client}
        actions={context.actions.signer}
        publicKey={screen.signerPublicKey}
        titleId={context.titleId}
        onClose={context.close}
      />
    ),
  },
  wallets: {
    render: (screen, context) => (
      <WalletListScreen
        client={context.client}
        actions={context.actions.wallets}
        purpose={
          screen.flow === "connect" || screen.flow === "connect-or-create"
            ? "connect"
            : screen.flow === "link"
              ? "link"
              : "login"
        }
        appName={context.appName}
        titleId={context.titleId}
        onBack={
          (screen.flow === "login" || screen.flow === "connect-or-create") && !walletsOnly(context)
            ? context.actions.methods.back
            : undefined
        }
      />
    ),
  },
  "wallet-connect": {
    render: (screen, context) => (
      <WalletConnectScreen
        client={context.client}
        actions={context.actions.wallets}
        walletId={screen.walletId}
        pending={screen.walletPending}
        loadError={screen.loadError}
        titleId={context.titleId}
        onCancel={context.close}
      />
    ),
  },
  "wallet-sign": {
    render: (screen, context) => (
      <WalletSignScreen
        client={context.client}
        actions={context.actions.wallets}
        purpose={screen.flow === "link" ? "link" : "login"}
        walletId={screen.walletId}
        address={screen.walletAddress}
        pending={screen.walletPending}
        loadError={screen.loadError}
        titleId={context.titleId}
      />
    ),
  },
  passkey: {
    render: (screen, context) => (
      <PasskeyScreen
        client={context.client}
        actions={context.actions.passkey}
        titleId={context.titleId}
        onBack={backOf(screen.flow, context)}
      />
    ),
  },
  passkeys: {
    render: (_screen, context) => (
      <PasskeysScreen client={context.client} actions={context.actions.passkeys} titleId={context.titleId} />
    ),
  },
  "mfa-enroll": {
    render: (_screen, context) => (
      <MfaEnrollScreen
        client={context.client}
        appName={context.appName}
        titleId={context.titleId}
        onClose={context.close}
      />
    ),
  },
  success: {
    render: (screen) => <SuccessScreen title={screen.title} />,
    compact: always,
    bare: true,
  },
};

/** Whether the login modal has a screen for `screen`. */
export const isLoginScreen = (screen: ModalScreen): screen is ScreenState<LoginScreenName> =>
  screen.screen in LOGIN_SCREENS;
