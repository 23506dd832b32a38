/** An MFA method: authenticator app (`totp`), SMS or passkey (spec §3 mfaMethods). */
export type MfaMethod = "totp" | "sms" | "passkey";

/** The methods this build has screens for, in the order they are offered. */
export const MFA_METHODS: readonly MfaMethod[] = ["totp", "sms", "passkey"];

/** Each method's name on the screens (and the accessible name of its button). */
export const MFA_METHOD_LABELS: Record<MfaMethod, string> = {
  totp: "Authenticator app",
  sms: "SMS",
  passkey: "Passkey",
};

/** Whether `name` (from the app config or the user) is a method this build knows. */
export function isMfaMethod(name: string): name is MfaMethod {
  return (MFA_METHODS as readonly string[]).includes(name);
}
