/**
 * How the e2e suite runs the stack: a built web app, and the demo app refusing '+' addresses so §5's rule shows,
 * with email first, then Google, GitHub (the local OAuth stand-ins) and a wallet (SIWE/SIWS), and a passkey, SMS,
 * Telegram (a local test bot) and Farcaster (the local relay) behind "More options" (so both the list order and the
 * overflow are exercised); MFA by authenticator app, SMS or passkey with transaction protection (the stack's
 * default). Demo app B (cross-app login with the demo app) on a second origin.
 */
export const stackOptions = {
  mode: "test",
  database: "sqlite",
  web: "preview",
  app: {
    disablePlusEmails: true,
    loginMethods: ["email", "google", "github", "wallet"],
    // The passkey behind More options: one more primary button would make the login screen scroll (layout test).
    moreLoginMethods: ["passkey", "sms", "telegram", "farcaster"],
    telegram: true,
  },
  // High enough that the suite never trips them; the server's own tests cover rate limiting.
  rateLimits: {
    emailPerWindow: 1000,
    ipPerWindow: 100000,
    smsIpPerWindow: 100000,
    windowS: 60,
    resendCooldownS: 0,
    ipAuthenticatePerWindow: 100000,
    codeFailuresPerAddress: 100000,
  },
};
