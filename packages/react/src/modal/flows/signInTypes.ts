// The words the sign-in flows share: which flow runs, which account it is about, and how the person came in.

/** The flows whose closing reports a `ModalOutcome`: log in, link an account, update one. */
export type AccountFlowKind = "login" | "link" | "update";
/** The flows that sign in or save an account; connect-or-create logs in unless a wallet only connects (spec §4). */
export type SignInFlowKind = AccountFlowKind | "connect-or-create";
/** The flows that log in: their login may wait for the app's terms. */
export type LoginFlowKind = "login" | "connect-or-create";
/** Which account a link or update flow is about. */
export type AccountKind = "email" | "phone";
/** Where a code went: an email or a text message. */
export type CodeChannel = "email" | "sms";
/** Where a code went, with the address or (E.164) number it went to. */
export type CodeTarget = { channel: "email"; email: string } | { channel: "sms"; phoneNumber: string };
/**
 * How a login came in, as `useLogin` reports it: the OAuth provider, or where the code went; nothing
 * for the other ways in.
 */
export type WayIn = { provider: string } | CodeTarget | { provider?: undefined; channel?: undefined };

/** Whether `flow` runs sign-in screens, or `connect` (which shares the wallet ones). */
export const isSignInOrConnect = (flow: string | null | undefined): flow is SignInFlowKind | "connect" =>
  flow === "login" ||
  flow === "link" ||
  flow === "update" ||
  flow === "connect-or-create" ||
  flow === "connect";

/** Whether `flow` reports a `ModalOutcome` (connect-or-create reports a wallet outcome). */
export const isAccountFlow = (flow: SignInFlowKind): flow is AccountFlowKind => flow !== "connect-or-create";
