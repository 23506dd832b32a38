import { lazy } from "react";

// Code-split inside the lazy login modal: a login by email never loads the phone screens (their
// country list), the refusal screens or the terms screen.
export const PhoneScreen = lazy(() => import("./PhoneScreen"));
export const PhoneForm = lazy(() =>
  import("./PhoneScreen").then((module) => ({ default: module.PhoneForm })),
);
export const RefusalScreen = lazy(() => import("./RefusalScreen"));
export const TransferScreen = lazy(() => import("./TransferScreen"));
export const TermsScreen = lazy(() => import("./TermsScreen"));
// OAuth screens load only once a provider was chosen (or a redirect came back).
export const OAuthStatusScreen = lazy(() => import("./OAuthStatusScreen"));
// Cross-app login (provider `privy:{appId}`): its own status screen.
export const CrossAppStatusScreen = lazy(() => import("./CrossAppStatusScreen"));
export const InAppBrowserScreen = lazy(() => import("./InAppBrowserScreen"));
export const TelegramScreen = lazy(() => import("./TelegramScreen"));
// With the QR code library: loaded only when Farcaster is chosen.
export const FarcasterScreen = lazy(() => import("./FarcasterScreen"));
export const FarcasterSignerScreen = lazy(() => import("./FarcasterSignerScreen"));
// External wallets: the list, connecting (with the WalletConnect QR code) and signing, each on demand.
export const WalletListScreen = lazy(() => import("./WalletListScreen"));
export const WalletConnectScreen = lazy(() => import("./WalletConnectScreen"));
export const WalletSignScreen = lazy(() => import("./WalletSignScreen"));
// Passkeys and MFA (issue 12): each screen on demand.
export const PasskeyScreen = lazy(() => import("./passkeys/PasskeyScreen"));
export const PasskeysScreen = lazy(() => import("./passkeys/PasskeysScreen"));
export const MfaVerifyScreen = lazy(() => import("./mfa/MfaVerifyScreen"));
export const MfaEnrollScreen = lazy(() => import("./mfa/MfaEnrollScreen"));
