// The MFA calls the frame makes (contract: `POST /mfa/verify` and the enrolment routes answer
// only the server's own origin, so the MFA token never reaches a host page).
import type {
  MfaMethodType,
  MfaPasskeyEnrollRequest,
  MfaSmsEnrollRequest,
  MfaSmsInitRequest,
  MfaTokenResponse,
  MfaUnenrollRequest,
  MfaUserResponse,
  MfaVerifyRequest,
  PasskeyUnlinkRequest,
  TotpEnrollRequest,
  TotpInitResponse,
  User,
} from "../../../core/src/generated/protocol.ts";
import type { Post } from "../api.ts";

export type { MfaMethodType };

export interface MfaApi {
  verify(token: string, body: MfaVerifyRequest): Promise<MfaTokenResponse>;
  initTotp(token: string): Promise<TotpInitResponse>;
  initSms(token: string, body: MfaSmsInitRequest): Promise<void>;
  enrollTotp(token: string, body: TotpEnrollRequest): Promise<MfaUserResponse>;
  enrollSms(token: string, body: MfaSmsEnrollRequest): Promise<MfaUserResponse>;
  enrollPasskeys(token: string, body: MfaPasskeyEnrollRequest): Promise<MfaUserResponse>;
  unenroll(token: string, body: MfaUnenrollRequest): Promise<MfaUserResponse>;
  /** `POST /passkeys/unlink`: answers the user itself. */
  unlinkPasskey(token: string, body: PasskeyUnlinkRequest): Promise<User>;
}

export function createMfaApi(post: Post): MfaApi {
  return {
    verify: (token, body) => post(token, "/mfa/verify", body),
    initTotp: (token) => post(token, "/mfa/totp/init", {}),
    initSms: async (token, body) => {
      await post<unknown>(token, "/mfa/passwordless_sms/init", body);
    },
    enrollTotp: (token, body) => post(token, "/mfa/totp/enroll", body),
    enrollSms: (token, body) => post(token, "/mfa/passwordless_sms/enroll", body),
    enrollPasskeys: (token, body) => post(token, "/mfa/passkeys/enroll", body),
    unenroll: (token, body) => post(token, "/mfa/unenroll", body),
    unlinkPasskey: (token, body) => post(token, "/passkeys/unlink", body),
  };
}
