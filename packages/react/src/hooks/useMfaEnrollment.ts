import {
  formatUser,
  initMfaEnrollment,
  type MfaMethodType,
  showMfaEnrollmentModal,
  submitMfaEnrollment,
  type User,
  unenrollMfa,
} from "@symbolon/core";
import { useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { requireClient } from "./requireClient";
import { useFormattedUser } from "./useFormattedUser";

/**
 * MFA enrolment (spec client `useMfaEnrollment`): `showMfaEnrollmentModal()` opens the modal's
 * enrolment screens; the headless calls enrol with SMS (`initEnrollmentWithSms({phoneNumber})` sends a
 * code, `submitEnrollmentWithSms({phoneNumber, mfaCode})`), an authenticator app
 * (`initEnrollmentWithTotp()` answers `{secret, authUrl}` for the QR code,
 * `submitEnrollmentWithTotp({mfaCode})`) or passkeys (`submitEnrollmentWithPasskey({credentialIds})`
 * with passkeys linked before); `unenroll(method)` removes one. When the user already has MFA, each
 * change asks for verification first. They resolve with the user (client form) as it is now.
 */
export function useMfaEnrollment(hookName = "useMfaEnrollment") {
  const { client } = usePrivyContext(hookName);
  // Re-render with the user so `mfaMethods` stays current for callers that read it.
  const user = useFormattedUser(hookName);
  return useMemo(() => {
    const c = () => requireClient(client, hookName);
    const formatted = async (pending: Promise<User>) => formatUser(await pending);
    const unenroll = (method: MfaMethodType) => formatted(unenrollMfa(c(), method));
    return {
      mfaMethods: user?.mfaMethods ?? [],
      showMfaEnrollmentModal: () => showMfaEnrollmentModal(c()),
      initEnrollmentWithSms: ({ phoneNumber }: { phoneNumber: string }) =>
        initMfaEnrollment(c(), { method: "sms", phoneNumber }).then(() => undefined),
      submitEnrollmentWithSms: ({ phoneNumber, mfaCode }: { phoneNumber: string; mfaCode: string }) =>
        formatted(submitMfaEnrollment(c(), { method: "sms", phoneNumber, mfaCode })),
      initEnrollmentWithTotp: async () => {
        const totp = await initMfaEnrollment(c(), { method: "totp" });
        return totp as { secret: string; authUrl: string };
      },
      submitEnrollmentWithTotp: ({ mfaCode }: { mfaCode: string }) =>
        formatted(submitMfaEnrollment(c(), { method: "totp", mfaCode })),
      initEnrollmentWithPasskey: () => initMfaEnrollment(c(), { method: "passkey" }).then(() => undefined),
      submitEnrollmentWithPasskey: ({
        credentialIds,
        removeForLogin,
      }: {
        credentialIds: string[];
        removeForLogin?: boolean;
      }) =>
        formatted(
          submitMfaEnrollment(c(), {
            method: "passkey",
            credentialIds,
            ...(removeForLogin === undefined ? {} : { removeForLogin }),
          }),
        ),
      unenroll,
      unenrollWithSms: () => unenroll("sms"),
      unenrollWithTotp: () => unenroll("totp"),
      unenrollWithPasskey: () => unenroll("passkey"),
    };
  }, [client, hookName, user]);
}

/** The same calls as {@link useMfaEnrollment} (spec client name for the auth-side enrolment). */
export function useAuthMfaEnrollment() {
  return useMfaEnrollment("useAuthMfaEnrollment");
}
