/**
 * The demo's passkey settings, shown on the Security card so a reader sees what removing a factor does.
 * `shouldUnenrollMfaOnUnlink: false`: a passkey used for 2-step verification is removed from it first (Manage
 * 2-step verification), so Unlink shows 'Cannot unlink a passkey enrolled in MFA' instead of asking for a code.
 * `shouldUnlinkOnUnenrollMfa: true` (the default, spelled out): turning off passkey verification also deletes
 * those passkeys from the user's login methods; the modal's confirmation names them.
 */
export const DEMO_PASSKEY_SETTINGS = {
  shouldUnenrollMfaOnUnlink: false,
  shouldUnlinkOnUnenrollMfa: true,
} as const;
