import type { Client } from "@symbolon/core";
import { Suspense } from "react";
import { EmailForm } from "./EmailForm";
import type { LoginMethodsActions } from "./flows/createLoginMethodsActions";
import { PhoneForm } from "./lazyScreens";
import type { LoginMethods } from "./loginMethods";
import { MethodButtons } from "./MethodButtons";
import { DIALOG_NAME } from "./ModalFrame";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link MethodsScreen}. */
export interface MethodsScreenProps {
  client: Client;
  actions: LoginMethodsActions;
  methods: LoginMethods;
  appName: string;
  disablePlusEmails: boolean;
  /** The address or number to start from (coming back with "Change email" / "Change number"). */
  initialEmail?: string;
  initialNumber?: string;
  /** `appearance.landingHeader`: the title instead of "Log in or sign up". */
  header?: string | undefined;
  /** `appearance.loginMessage`: the line under the title. */
  message?: string | undefined;
  /** Move focus to the title (coming back from another screen). */
  focusTitle?: boolean;
}

/**
 * The login screen: the app's methods in `login_methods_and_order` order. The first primary method
 * is shown inline (its field and Submit), the other primary ones as buttons, and the overflow
 * behind "More options".
 */
export function MethodsScreen({
  client,
  actions,
  methods,
  appName,
  disablePlusEmails,
  initialEmail,
  initialNumber,
  header,
  message,
  focusTitle = false,
}: MethodsScreenProps) {
  // Only a code method is shown inline (its field); OAuth providers are always buttons.
  const first = methods.primary[0];
  const inline = first === "email" || first === "sms" ? first : undefined;
  const others = inline === undefined ? methods.primary : methods.primary.slice(1);
  const fallback =
    inline === "email"
      ? `Enter your email to continue to ${appName}.`
      : inline === "sms"
        ? `Enter your phone number to continue to ${appName}.`
        : `Choose how to continue to ${appName}.`;
  return (
    <>
      <ScreenTitle focus={focusTitle}>{header ?? DIALOG_NAME}</ScreenTitle>
      <p className="symbolon-subtitle">{message ?? fallback}</p>
      {inline === "email" && (
        <EmailForm
          client={client}
          actions={actions}
          disablePlusEmails={disablePlusEmails}
          autoFocus={!focusTitle}
          {...(initialEmail !== undefined && { initialEmail })}
        />
      )}
      {inline === "sms" && (
        <Suspense fallback={null}>
          <PhoneForm
            client={client}
            via={actions}
            autoFocus={!focusTitle}
            {...(initialNumber !== undefined && { initialNumber })}
          />
        </Suspense>
      )}
      {inline !== undefined && (others.length > 0 || methods.overflow.length > 0) && (
        // A line with "or" on it, read as the word "or" (a separator role would hide its text).
        <div className="symbolon-divider">
          <span>or</span>
        </div>
      )}
      {(others.length > 0 || methods.overflow.length > 0) && (
        <MethodButtons actions={actions} methods={others}>
          {methods.overflow.length > 0 && (
            <button type="button" className="symbolon-secondary" onClick={actions.showMore}>
              More options
            </button>
          )}
        </MethodButtons>
      )}
    </>
  );
}
