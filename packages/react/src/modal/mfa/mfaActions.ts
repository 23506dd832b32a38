// The core MFA actions the screens call, in one place (the tests replace this module).
export {
  cancelMfa,
  initMfa,
  initMfaEnrollment,
  submitMfa,
  submitMfaEnrollment,
  unenrollMfa,
} from "@symbolon/core";
