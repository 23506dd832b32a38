// The MFA calls loaded on first use (through `lazyActions.ts`): verification with the frame and enrolment.
export { initMfaEnrollment, submitMfaEnrollment, unenrollMfa } from "./enrollment.ts";
export { initMfa, submitMfa } from "./verification.ts";
