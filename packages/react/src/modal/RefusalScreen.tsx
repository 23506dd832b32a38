import type { AccountFlowKind } from "./flows/signInTypes";
import type { RefusalCode } from "./flows/toRefusal";
import { ScreenTitle } from "./ScreenTitle";

/** What each refusal screen says (spec §2 "navigated to"; §8 for the linked-to-another-user line). */
export const REFUSAL_TEXTS: Record<
  Exclude<RefusalCode, "account_transfer_required">,
  { title: string; body: (appName: string, subject: string | null) => string }
> = {
  allowlist_rejected: {
    title: "You don't have access to this app",
    body: (app, subject) =>
      `${subject ?? "This account"} is not on ${app}'s list of allowed users. If you think this is a mistake, contact ${app}.`,
  },
  max_accounts_reached: {
    title: "User limit reached",
    body: (app) =>
      `${app} has reached its limit of users, so no new account can be created right now. Try again later.`,
  },
  user_does_not_exist: {
    title: "Account not found",
    body: (app, subject) =>
      `There is no ${app} account for ${subject ?? "this login"}. Try another way to log in.`,
  },
  signup_disabled: {
    title: "Sign-up is closed",
    body: (app) => `${app} is not accepting new accounts right now. Log in with an account you already have.`,
  },
  linked_to_another_user: {
    title: "Account already in use",
    body: () => "This account has already been linked to another user.",
  },
};

/** Props of {@link RefusalScreen}. */
export interface RefusalScreenProps {
  code: Exclude<RefusalCode, "account_transfer_required">;
  flow: AccountFlowKind;
  appName: string;
  /** The address or number that was refused, when known. */
  subject: string | null;
  titleId?: string | undefined;
  /** Another try: back to the login screen. */
  onBack: () => void;
  onClose: () => void;
}

/**
 * A login or link the server refused for a reason the person can act on: says why, and offers
 * another try (back to where they chose the account) or Close. Loaded lazily.
 */
export default function RefusalScreen({
  code,
  flow,
  appName,
  subject,
  titleId,
  onBack,
  onClose,
}: RefusalScreenProps) {
  const text = REFUSAL_TEXTS[code];
  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        {text.title}
      </ScreenTitle>
      <p className="symbolon-subtitle" role="alert">
        {text.body(appName, subject)}
      </p>
      <button type="button" className="symbolon-button" onClick={onBack}>
        {flow === "login" ? "Try another account" : "Try another"}
      </button>
      <button type="button" className="symbolon-link" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
