/** Spec §8 passkey lines: core throws them as they are and the screens show them unchanged. */
export const PASSKEY_LINES: ReadonlySet<string> = new Set([
  "Passkey request timed out or rejected by user.",
  "Unknown error occurred.",
  "Cannot link more passkeys to account.",
  "Cannot unlink a passkey enrolled in MFA",
]);
