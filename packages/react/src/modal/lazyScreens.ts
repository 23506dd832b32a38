import { lazy } from "react";

// Components more than one screen shows, each in a chunk of its own (the other screens' components
// are declared with their flow, in `flows/<flow>Screens.tsx`).

// The phone form of the login screen and of the MFA SMS enrolment: with the phone screen (its country list).
export const PhoneForm = lazy(() =>
  import("./PhoneScreen").then((module) => ({ default: module.PhoneForm })),
);
// The wallet list: the wallet flows' screen, and the login screen of an app whose only method is a wallet.
export const WalletListScreen = lazy(() => import("./WalletListScreen"));
// The MFA verification (issue 12): over the screen of any flow, in both modals.
export const MfaVerifyScreen = lazy(() => import("./mfa/MfaVerifyScreen"));
